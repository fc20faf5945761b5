import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The README's journeys as a test runs them: every ```bash block whose first line is `# journey: <name>`,
 * in README order, as one bash script that keeps each README line at its own line number (plus one for
 * the prelude), so a request's line tells which comment speaks of it.
 */
export interface Journey {
  name: string;
  /** 1-based README lines of the block's first and last line (the fences excluded). */
  firstLine: number;
  lastLine: number;
}

/** What a comment under a request promises: `# 201 {...}` (a status, and optionally fields as JSON). */
export interface Promise_ {
  journey: string;
  /** The comment's README line. */
  line: number;
  /** Requests on README lines after `after` and before `line` are the ones it speaks of (the last one made). */
  after: number;
  status: number;
  fields: unknown;
  text: string;
}

export const BASE_LINE = "BASE=http://localhost:3000";

export function journeysOf(readme: string): Journey[] {
  const lines = readme.split("\n");
  const journeys: Journey[] = [];
  for (let i = 0; i < lines.length; i++) {
    const name = lines[i] === "```bash" ? lines[i + 1]?.match(/^# journey: (\S+)$/)?.[1] : undefined;
    if (!name) continue;
    const end = lines.indexOf("```", i + 1);
    journeys.push({ name, firstLine: i + 2, lastLine: end });
    i = end;
  }
  return journeys;
}

/** The script: the prelude's `source` on line 1, then README line n on line n + 1 when it is in a journey, else blank. */
export function journeyScript(readme: string, journeys: Journey[], base: string): string {
  const lines = readme.split("\n");
  const inJourney = (n: number) => journeys.some((j) => n >= j.firstLine && n <= j.lastLine);
  const body = lines.map((text, index) => (inJourney(index + 1) ? (text === BASE_LINE ? `BASE=${base}` : text) : ""));
  return ['source "$JOURNEY_PRELUDE"', ...body].join("\n");
}

/**
 * Wraps curl: each call records the README line it was made from, its status and its body, and still
 * writes the body to stdout (pipes and `$(...)` see what they would without it).
 */
export const PRELUDE = `set -euo pipefail
curl() {
  local line=$(( BASH_LINENO[0] - 1 ))
  local record="$JOURNEY_LOG/$(date +%s%N)-$BASHPID-$RANDOM"
  local rc=0
  command curl -D "$record.headers" "$@" | tee "$record.body" || rc=$?
  echo "$line" > "$record.line"
  return "$rc"
}
`;

export function promisesOf(readme: string, journeys: Journey[]): Promise_[] {
  const lines = readme.split("\n");
  const promises: Promise_[] = [];
  for (const journey of journeys) {
    let after = journey.firstLine;
    for (let n = journey.firstLine; n <= journey.lastLine; n++) {
      const match = lines[n - 1]!.match(/^# (\d{3})\b\s*(.*)$/);
      if (!match) continue;
      let fields: unknown = undefined;
      if (match[2]!.startsWith("{")) {
        try {
          fields = JSON.parse(match[2]!);
        } catch {
          throw new Error(`README line ${n}: the promised fields are not JSON: ${match[2]}`);
        }
      }
      promises.push({ journey: journey.name, line: n, after, status: Number(match[1]), fields, text: lines[n - 1]! });
      after = n;
    }
  }
  return promises;
}

export interface RecordedCall {
  line: number;
  status: number | null;
  body: string;
}

export async function recordedCalls(dir: string): Promise<RecordedCall[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".line")).sort();
  return Promise.all(
    names.map(async (name) => {
      const stem = path.join(dir, name.slice(0, -".line".length));
      const headers = await readFile(`${stem}.headers`, "utf8").catch(() => "");
      const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
      return { line: Number((await readFile(`${stem}.line`, "utf8")).trim()), status: statuses.at(-1) ?? null, body: await readFile(`${stem}.body`, "utf8").catch(() => "") };
    }),
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `expected` within `actual`: objects by their listed keys, arrays by each listed element, "x..." strings as patterns. */
export function contains(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "string" && expected.includes("...")) {
    return typeof actual === "string" && new RegExp(`^${expected.split("...").map(escape).join(".*")}$`, "s").test(actual);
  }
  if (expected === null || typeof expected !== "object") return Object.is(expected, actual);
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.every((e) => actual.some((a) => contains(e, a)));
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([key, value]) => key in actual && contains(value, (actual as Record<string, unknown>)[key]));
}

/** `expected` within `actual` or within any object nested in it (what a `| jq '.data[0]'` shows). */
export function containsAnywhere(expected: unknown, actual: unknown): boolean {
  if (contains(expected, actual)) return true;
  return actual !== null && typeof actual === "object" && Object.values(actual).some((value) => containsAnywhere(expected, value));
}

/** Every broken promise, described; none: an empty list. */
export function brokenPromises(promises: Promise_[], calls: RecordedCall[]): string[] {
  const broken: string[] = [];
  for (const promise of promises) {
    const call = calls.filter((c) => c.line > promise.after && c.line < promise.line).at(-1);
    const where = `README line ${promise.line} (journey ${promise.journey}) "${promise.text}"`;
    if (!call) {
      broken.push(`${where}: no request was made above it`);
      continue;
    }
    if (call.status !== promise.status) broken.push(`${where}: answered ${call.status}: ${call.body.slice(0, 500)}`);
    else if (promise.fields !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(call.body);
      } catch {
        body = call.body;
      }
      if (!containsAnywhere(promise.fields, body)) broken.push(`${where}: the answer lacks the promised fields: ${call.body.slice(0, 800)}`);
    }
  }
  return broken;
}
