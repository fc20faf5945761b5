import { readFile } from "node:fs/promises";
import type { Db } from "../../platform/db/client.js";
import { parseSchemeMaster } from "../../integrations/exchange/masters/scheme-master.js";
import { parseSipMaster } from "../../integrations/exchange/masters/sip-master.js";
import { MasterFileError, type MasterProblem } from "../../integrations/exchange/masters/master-file.js";
import * as repo from "./exchange-schemes.repo.js";

export { MasterFileError };

export interface MasterImportSummary {
  /** Data lines read (skipped ones included). */
  read: number;
  inserted: number;
  /** Known rows that changed (an unchanged row is neither inserted nor updated). */
  updated: number;
  /** Active rows the new master no longer lists, now inactive. */
  deactivated: number;
  /** Lines skipped, each with its line number. */
  problems: MasterProblem[];
}

export interface SchemeMasterSummary extends MasterImportSummary {
  /** ISINs of rows no scheme of ours carries yet: kept (they link once AMFI's master lists them), not tradable meanwhile. */
  unlinked_isins: string[];
}

export interface ExchangeMastersSummary {
  schemes: SchemeMasterSummary;
  sip: MasterImportSummary | null;
}

/** The files of one import: the scheme master's text and, optionally, the SIP master's. */
export interface ExchangeMasterTexts {
  schemes: string;
  sip?: string;
}

export const readMasterFiles = async (files: { schemes: string; sip?: string }): Promise<ExchangeMasterTexts> => ({
  schemes: await readFile(files.schemes, "utf8"),
  sip: files.sip === undefined ? undefined : await readFile(files.sip, "utf8"),
});

/**
 * Imports the exchange's scheme master (and SIP master): both files are read whole first, so a header that
 * lacks a required column (MasterFileError) changes nothing; then every row is written in ONE transaction,
 * codes (and SIP rules) the new files do not list become inactive, and the schemes' summary rule columns are
 * derived again. A bad line is skipped and reported with its line number.
 */
export async function importExchangeMasters(db: Db, texts: ExchangeMasterTexts): Promise<ExchangeMastersSummary> {
  const schemes = parseSchemeMaster(texts.schemes);
  const sip = texts.sip === undefined ? null : parseSipMaster(texts.sip);
  if (schemes.records.length === 0) throw new MasterFileError("the scheme master has no valid row: nothing was imported (a full master replaces the previous one)");
  if (sip && sip.records.length === 0) throw new MasterFileError("the SIP master has no valid row: nothing was imported");
  return db.$transaction(
    async (tx) => {
      const schemeCounts = await repo.upsertExchangeSchemes(tx, schemes.records);
      const deactivated = await repo.deactivateExchangeSchemesExcept(tx, schemes.records.map((r) => r.code));
      let sipSummary: MasterImportSummary | null = null;
      if (sip) {
        const counts = await repo.upsertSipRules(tx, sip.records);
        const gone = await repo.deactivateSipRulesExcept(tx, sip.records);
        sipSummary = { read: sip.records.length + sip.problems.length, ...counts, deactivated: gone, problems: sip.problems };
      }
      await repo.deriveSchemeRules(tx);
      const unlinked = await repo.unknownIsins(tx, schemes.records.map((r) => r.isin));
      return {
        schemes: { read: schemes.records.length + schemes.problems.length, ...schemeCounts, deactivated, problems: schemes.problems, unlinked_isins: unlinked },
        sip: sipSummary,
      };
    },
    { timeout: 120_000 },
  );
}

/** One line per file, for the command line and the job's log. */
export function describeMasterImport(summary: ExchangeMastersSummary): string[] {
  const line = (what: string, s: MasterImportSummary) =>
    `${what}: ${s.read} lines read, ${s.inserted} added, ${s.updated} changed, ${s.deactivated} no longer listed (inactive), ${s.problems.length} skipped`;
  const lines = [line("scheme master", summary.schemes)];
  if (summary.schemes.unlinked_isins.length > 0) {
    lines.push(`  ${summary.schemes.unlinked_isins.length} codes have an ISIN the AMFI scheme master lacks (kept; tradable once it lists them)`);
  }
  for (const p of summary.schemes.problems.slice(0, 20)) lines.push(`  line ${p.line}: ${p.message}`);
  if (summary.sip) {
    lines.push(line("SIP master", summary.sip));
    for (const p of summary.sip.problems.slice(0, 20)) lines.push(`  line ${p.line}: ${p.message}`);
  }
  return lines;
}

