import type { DbOrTx } from "../../platform/db/client.js";
import { decimalOrNull } from "../../platform/lib/formats.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import { parseNavAllFile, type SkippedLine } from "../../integrations/amfi/navall.js";
import { upsertAmfiRecords, type ImportStats } from "./schemes.import.js";
import * as repo from "./schemes.repo.js";
import { deriveSchemeRules, exchangeSchemesOfIsins, findExchangeScheme as findExchangeSchemeRow, sipRulesOf, type ExchangeSchemeRow, type ExchangeSipRuleRow } from "./exchange-schemes.repo.js";


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

const day = (value: Date | null) => (value ? value.toISOString().slice(0, 10) : null);

function exchangeCodeView(row: ExchangeSchemeRow) {
  return {
    code: row.code,
    transaction_mode: row.transactionMode,
    purchase_allowed: row.purchaseAllowed && row.amcActive,
    redemption_allowed: row.redemptionAllowed && row.amcActive,
    sip_allowed: row.sipAllowed && row.amcActive,
    stp_allowed: row.stpAllowed && row.amcActive,
    swp_allowed: row.swpAllowed && row.amcActive,
    switch_allowed: row.switchAllowed && row.amcActive,
    min_purchase_amount: decimalOrNull(row.minPurchaseAmount),
    min_additional_amount: decimalOrNull(row.minAdditionalAmount),
    max_purchase_amount: decimalOrNull(row.maxPurchaseAmount),
    purchase_multiple: decimalOrNull(row.purchaseMultiple),
    min_redemption_amount: decimalOrNull(row.minRedemptionAmount),
    max_redemption_amount: decimalOrNull(row.maxRedemptionAmount),
    redemption_amount_multiple: decimalOrNull(row.redemptionAmountMultiple),
    min_redemption_units: decimalOrNull(row.minRedemptionUnits),
    max_redemption_units: decimalOrNull(row.maxRedemptionUnits),
    redemption_units_multiple: decimalOrNull(row.redemptionUnitsMultiple),
    purchase_cut_off: row.purchaseCutOff,
    redemption_cut_off: row.redemptionCutOff,
    settlement_type: row.settlementType,
    exit_load: row.exitLoad,
    lock_in: row.lockIn,
    start_date: day(row.startDate),
    end_date: day(row.endDate),
    active: row.active,
  };
}

function sipRuleView(row: ExchangeSipRuleRow) {
  return {
    code: row.code,
    frequency: row.frequency,
    dates: row.dates,
    min_amount: decimalOrNull(row.minAmount),
    max_amount: decimalOrNull(row.maxAmount),
    multiple: decimalOrNull(row.multiple),
    min_installments: row.minInstallments,
    max_installments: row.maxInstallments,
    pause_allowed: row.pauseAllowed,
  };
}

export type SchemeView = ReturnType<typeof toApi> & { exchange_codes: Array<ReturnType<typeof exchangeCodeView>>; sip_rules: Array<ReturnType<typeof sipRuleView>> };

/** Schemes with their exchange codes and active SIP rules: two queries for a whole page. */
async function withExchangeRules(db: DbOrTx, rows: repo.SchemeRow[]): Promise<SchemeView[]> {
  const isins = rows.flatMap((r) => [r.isinGrowth, r.isinReinvestment]).filter((isin): isin is string => isin !== null);
  const codes = await exchangeSchemesOfIsins(db, isins);
  const rules = (await sipRulesOf(db, codes.map((c) => c.code))).filter((r) => r.active);
  return rows.map((row) => {
    const own = codes.filter((c) => c.isin === row.isinGrowth || c.isin === row.isinReinvestment);
    const ownCodes = new Set(own.map((c) => c.code));
    return { ...toApi(row), exchange_codes: own.map(exchangeCodeView), sip_rules: rules.filter((r) => ownCodes.has(r.code)).map(sipRuleView) };
  });
}

export async function listSchemes(
  db: DbOrTx,
  query: { q?: string; amc_code?: string; limit: number; cursor?: string },
): Promise<{ data: SchemeView[]; next_cursor: string | null }> {
  const keys = readCursor(query.cursor, 2);
  const after = keys ? { name: keys[0]!, schemeCode: keys[1]! } : undefined;
  const rows = await repo.listSchemes(db, { q: query.q, amcCode: query.amc_code, after, limit: query.limit });
  const page = toPage(rows, query.limit, (row) => [row.name, row.schemeCode], (row) => row);
  return { data: await withExchangeRules(db, page.data), next_cursor: page.next_cursor };
}

/** The scheme's name in the AMFI master (null for an unknown code). */
export async function schemeNameOf(db: DbOrTx, schemeCode: string): Promise<string | null> {
  return (await repo.findScheme(db, schemeCode))?.name ?? null;
}

export async function getScheme(db: DbOrTx, schemeCode: string): Promise<SchemeView | null> {
  const row = await repo.findScheme(db, schemeCode);
  return row ? (await withExchangeRules(db, [row]))[0]! : null;
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

// Read by other domains (they never import this domain's repos).

export async function amcExists(db: DbOrTx, amcCode: string): Promise<boolean> {
  return repo.amcExists(db, amcCode);
}

/** Every scheme's code, AMC, name, growth ISIN and NAV. */
export async function schemeSummaries(db: DbOrTx) {
  return repo.schemeSummaries(db);
}

export async function findScheme(db: DbOrTx, schemeCode: string) {
  return repo.findScheme(db, schemeCode);
}

/** One of the exchange's scheme codes, as its master lists it. */
export async function findExchangeScheme(db: DbOrTx, code: string) {
  return findExchangeSchemeRow(db, code);
}
