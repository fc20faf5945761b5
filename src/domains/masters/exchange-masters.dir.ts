import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { CronItem } from "graphile-worker";
import type { Db } from "../../platform/db/client.js";
import { indiaCronMatcher } from "../../platform/lib/india-cron.js";
import { importExchangeMasters, readMasterFiles, type ExchangeMastersSummary } from "./exchange-masters.import.js";

/**
 * The daily import's crontab item: `EXCHANGE_MASTERS_CRON`, five fields in Asia/Kolkata time (default
 * `30 7 * * *`, 07:30 IST, after the exchange publishes the day's masters and before the market opens).
 */
export function exchangeMastersCronItem(expression: string): CronItem {
  return {
    task: "masters__import_exchange",
    identifier: "masters__import_exchange",
    options: { backfillPeriod: 6 * 3_600_000, queueName: "masters", maxAttempts: 3 },
    match: indiaCronMatcher(expression),
  };
}

/**
 * The newest masters in the folder: a file whose name holds `sip` is a SIP master; one whose name holds
 * `scheme` (and not `sip`: the exchange's SIP master is often named `SIPSchemeMaster`) a scheme master. Any
 * case; the newest by modification time, then by name.
 */
export async function newestMasters(dir: string): Promise<{ schemes: string | null; sip: string | null }> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  const newest = async (matching: string[]) => {
    const dated = await Promise.all(matching.map(async (name) => ({ name, mtime: (await stat(path.join(dir, name))).mtimeMs })));
    dated.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? 1 : -1));
    return dated[0] ? path.join(dir, dated[0].name) : null;
  };
  return {
    schemes: await newest(names.filter((n) => /scheme/i.test(n) && !/sip/i.test(n))),
    sip: await newest(names.filter((n) => /sip/i.test(n))),
  };
}

/** Imports the folder's newest masters; null when the folder holds no scheme master (nothing is imported). */
export async function importMastersDir(db: Db, dir: string): Promise<{ files: { schemes: string; sip: string | null }; summary: ExchangeMastersSummary } | null> {
  const { schemes, sip } = await newestMasters(dir);
  if (!schemes) return null;
  const summary = await importExchangeMasters(db, await readMasterFiles({ schemes, sip: sip ?? undefined }));
  return { files: { schemes, sip }, summary };
}
