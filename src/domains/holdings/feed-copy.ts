import { once } from "node:events";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { PAN_PATTERN } from "../../platform/lib/formats.js";
import { maskPansInText } from "../../platform/lib/mask.js";
import type { FeedProblem } from "../../integrations/registrars/feeds/feed.js";

/** The problems a feed file's record keeps (the count goes on). */
export const MAX_PROBLEMS_KEPT = 100;
const PAN_CACHE_LIMIT = 50_000;
const ARN_CACHE_LIMIT = 10_000;
const FLUSH_BYTES = 256 * 1024;

/** Counts a problem line and keeps the first ones, PANs masked. */
export function recordProblem(report: { problem_count: number; problems: FeedProblem[] }, problem: FeedProblem): void {
  report.problem_count++;
  if (report.problems.length < MAX_PROBLEMS_KEPT) report.problems.push({ ...problem, reason: maskPansInText(problem.reason) });
}

/** The keyed hash of a well-formed PAN (`\N` for none), remembered: an investor's PAN repeats per folio and per transaction. */
export function panHasher(cipher: DataCipher): (pan: string | null) => string {
  const pans = new Map<string, string>();
  return (pan) => {
    if (pan === null || !PAN_PATTERN.test(pan)) return "\\N";
    let hash = pans.get(pan);
    if (hash === undefined) {
      if (pans.size >= PAN_CACHE_LIMIT) pans.clear();
      hash = cipher.lookupHash(pan);
      pans.set(pan, hash);
    }
    return hash;
  };
}

/** The distributor of each ARN as written in the feed (`distributors` keyed by arnKey), remembered: a handful over millions of rows. */
export function arnResolver(distributors: Map<string, string>, keyOf: (arn: string) => string): (arn: string) => string | undefined {
  const byArn = new Map<string, string | undefined>();
  return (arn) => {
    let distributorId = byArn.get(arn);
    if (distributorId === undefined && !byArn.has(arn)) {
      distributorId = distributors.get(keyOf(arn));
      if (byArn.size >= ARN_CACHE_LIMIT) byArn.clear();
      byArn.set(arn, distributorId);
    }
    return distributorId;
  };
}

/**
 * A COPY ... FROM STDIN fed with text rows: `add` appends (one concatenation, no await, for a million rows), `full`
 * says when to `flush` (with backpressure), `failed` when the server refused the stream (stop reading), `finish`
 * ends it and throws the server's error if any; `abort` after an error of ours.
 */
export function copyWriter(client: pg.ClientBase, sql: string) {
  const copy = client.query(copyFrom(sql));
  let copyError: Error | undefined;
  copy.on("error", (error: Error) => {
    copyError = error;
  });
  let buffer = "";
  const flush = async () => {
    if (buffer === "") return;
    const ok = copy.write(buffer);
    buffer = "";
    // events.once also settles (rejects) on "error", which is kept in copyError.
    if (!ok && !copyError) await once(copy, "drain").catch(() => {});
  };
  return {
    add(text: string): void {
      buffer += text;
    },
    get full(): boolean {
      return buffer.length >= FLUSH_BYTES;
    },
    get failed(): boolean {
      return copyError !== undefined;
    },
    flush,
    async finish(): Promise<void> {
      await flush();
      if (!copyError) {
        copy.end();
        await once(copy, "finish").catch(() => {});
      }
      if (copyError) throw copyError;
    },
    abort(): void {
      copy.destroy();
    },
  };
}
