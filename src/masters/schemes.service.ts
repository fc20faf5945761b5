import type { DbOrTx } from "../db/client.js";
import { decimalOrNull } from "../lib/formats.js";
import { readCursor, toPage } from "../lib/zod.js";
import { parseNavAllFile, type SkippedLine } from "./amfi/navall.js";
import { upsertAmfiRecords, type ImportStats } from "./schemes.import.js";
import * as repo from "./schemes.repo.js";
import { deriveSchemeRules } from "./exchange-schemes.repo.js";


function toApi(row: repo.SchemeRow) {
  return {
    scheme_code: row.schemeCode,
    isin: row.isinGrowth,
    isin_reinvestment: row.isinReinvestment,
    scheme_name: row.name,
    amc_code: row.amcCode,
    amc_name: row.amcName,
    category: row.category,
    scheme_type: row.schemeType,
    plan: row.plan,
    option: row.option,
    purchase_allowed: row.purchaseAllowed,
    redemption_allowed: row.redemptionAllowed,
    sip_allowed: row.sipAllowed,
    min_purchase_amount: decimalOrNull(row.minPurchaseAmount),
    purchase_multiple: decimalOrNull(row.purchaseMultiple),
    min_additional_amount: decimalOrNull(row.minAdditionalAmount),
    min_redemption_amount: decimalOrNull(row.minRedemptionAmount),
    min_sip_amount: decimalOrNull(row.minSipAmount),
    sip_multiple: decimalOrNull(row.sipMultiple),
    nav: decimalOrNull(row.nav),
    nav_date: row.navDate ? row.navDate.toISOString().slice(0, 10) : null,
  };
}

export type SchemeView = ReturnType<typeof toApi>;

export async function listSchemes(
  db: DbOrTx,
  query: { q?: string; amc_code?: string; limit: number; cursor?: string },
): Promise<{ data: SchemeView[]; next_cursor: string | null }> {
  const keys = readCursor(query.cursor, 2);
  const after = keys ? { name: keys[0]!, schemeCode: keys[1]! } : undefined;
  const rows = await repo.listSchemes(db, { q: query.q, amcCode: query.amc_code, after, limit: query.limit });
  return toPage(rows, query.limit, (row) => [row.name, row.schemeCode], toApi);
}

export async function getScheme(db: DbOrTx, schemeCode: string): Promise<SchemeView | null> {
  const row = await repo.findScheme(db, schemeCode);
  return row ? toApi(row) : null;
}

/** Imports an AMFI NAVAll.txt file (either format) into the scheme master. */
export async function importNavAllFile(
  db: DbOrTx,
  path: string,
): Promise<ImportStats & { format: "OLD" | "NEW"; skipped: SkippedLine[] }> {
  const { format, records, skipped } = await parseNavAllFile(path);
  const stats = await upsertAmfiRecords(db, records);
  // A scheme AMFI lists for the first time takes its rules from the exchange codes of its ISIN, if any.
  await deriveSchemeRules(db);
  return { ...stats, format, skipped };
}
