import type { DbOrTx } from "../db/client.js";
import { validationError } from "../lib/errors.js";
import { decodeCursor, encodeCursor } from "../lib/zod.js";
import { parseNavAllFile, type AmfiOption, type SkippedLine } from "./amfi/navall.js";
import { upsertAmfiRecords, type ImportStats } from "./schemes.import.js";
import * as repo from "./schemes.repo.js";

const decimal = (value: { toNumber(): number } | null) => (value === null ? null : value.toNumber());

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
    plan: row.plan as "DIRECT" | "REGULAR" | null,
    option: row.option as AmfiOption | null,
    purchase_allowed: row.purchaseAllowed,
    redemption_allowed: row.redemptionAllowed,
    sip_allowed: row.sipAllowed,
    min_purchase_amount: decimal(row.minPurchaseAmount),
    purchase_multiple: decimal(row.purchaseMultiple),
    min_additional_amount: decimal(row.minAdditionalAmount),
    min_redemption_amount: decimal(row.minRedemptionAmount),
    min_sip_amount: decimal(row.minSipAmount),
    sip_multiple: decimal(row.sipMultiple),
    nav: decimal(row.nav),
    nav_date: row.navDate ? row.navDate.toISOString().slice(0, 10) : null,
  };
}

export type SchemeView = ReturnType<typeof toApi>;

export async function listSchemes(
  db: DbOrTx,
  query: { q?: string; amc_code?: string; limit: number; cursor?: string },
): Promise<{ data: SchemeView[]; next_cursor: string | null }> {
  let after: { name: string; schemeCode: string } | undefined;
  if (query.cursor) {
    const values = decodeCursor(query.cursor, 2);
    if (!values) throw validationError([{ path: "cursor", message: "Unknown or damaged cursor" }]);
    after = { name: values[0]!, schemeCode: values[1]! };
  }
  const rows = await repo.listSchemes(db, { q: query.q, amcCode: query.amc_code, after, limit: query.limit });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const next_cursor = rows.length > query.limit && last ? encodeCursor([last.name, last.schemeCode]) : null;
  return { data: page.map(toApi), next_cursor };
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
  return { ...stats, format, skipped };
}
