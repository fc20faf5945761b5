import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { EXCHANGE_TRANSACTION_MODES, type ExchangeSchemeRecord, type ExchangeTransactionMode } from "../../integrations/exchange/masters/scheme-master.js";
import type { ExchangeSipRecord } from "../../integrations/exchange/masters/sip-master.js";

type StoredExchangeScheme = Prisma.ExchangeSchemeGetPayload<object>;
export type ExchangeSchemeRow = Omit<StoredExchangeScheme, "transactionMode"> & { transactionMode: ExchangeTransactionMode };
export type ExchangeSipRuleRow = Prisma.ExchangeSipRuleGetPayload<object>;

function toExchangeSchemeRow(row: StoredExchangeScheme): ExchangeSchemeRow {
  return { ...row, transactionMode: narrowTo(EXCHANGE_TRANSACTION_MODES, row.transactionMode, "exchange_schemes.transaction_mode") };
}

/** The exchange codes of several of our schemes at once, by ISIN (a list page). */
export async function exchangeSchemesOfIsins(db: DbOrTx, isins: readonly string[]): Promise<ExchangeSchemeRow[]> {
  if (isins.length === 0) return [];
  const rows = await db.exchangeScheme.findMany({ where: { isin: { in: [...isins] } }, orderBy: [{ uniqueNo: "asc" }, { code: "asc" }] });
  return rows.map(toExchangeSchemeRow);
}

/** One exchange code's row, or null. */
export async function findExchangeScheme(db: DbOrTx, code: string): Promise<ExchangeSchemeRow | null> {
  const row = await db.exchangeScheme.findUnique({ where: { code } });
  return row && toExchangeSchemeRow(row);
}

/** The SIP rules of exchange codes, by code then frequency. */
export async function sipRulesOf(db: DbOrTx, codes: readonly string[]): Promise<ExchangeSipRuleRow[]> {
  if (codes.length === 0) return [];
  return db.exchangeSipRule.findMany({ where: { code: { in: [...codes] } }, orderBy: [{ code: "asc" }, { frequency: "asc" }] });
}

/** [column, SQL array type, value of a record] for each stored column of exchange_schemes but `active`. */
const SCHEME_COLUMNS: Array<[string, string, (r: ExchangeSchemeRecord) => unknown]> = [
  ["code", "text", (r) => r.code],
  ["unique_no", "int", (r) => r.uniqueNo],
  ["isin", "text", (r) => r.isin],
  ["name", "text", (r) => r.name],
  ["rta_scheme_code", "text", (r) => r.rtaSchemeCode],
  ["amc_scheme_code", "text", (r) => r.amcSchemeCode],
  ["amc_code", "text", (r) => r.amcCode],
  ["scheme_type", "text", (r) => r.schemeType],
  ["scheme_plan", "text", (r) => r.schemePlan],
  ["transaction_mode", "text", (r) => r.transactionMode],
  ["purchase_allowed", "boolean", (r) => r.purchaseAllowed],
  ["redemption_allowed", "boolean", (r) => r.redemptionAllowed],
  ["sip_allowed", "boolean", (r) => r.sipAllowed],
  ["stp_allowed", "boolean", (r) => r.stpAllowed],
  ["swp_allowed", "boolean", (r) => r.swpAllowed],
  ["switch_allowed", "boolean", (r) => r.switchAllowed],
  ["amc_active", "boolean", (r) => r.amcActive],
  ["min_purchase_amount", "numeric", (r) => r.minPurchaseAmount],
  ["min_additional_amount", "numeric", (r) => r.minAdditionalAmount],
  ["max_purchase_amount", "numeric", (r) => r.maxPurchaseAmount],
  ["purchase_multiple", "numeric", (r) => r.purchaseMultiple],
  ["min_redemption_amount", "numeric", (r) => r.minRedemptionAmount],
  ["max_redemption_amount", "numeric", (r) => r.maxRedemptionAmount],
  ["redemption_amount_multiple", "numeric", (r) => r.redemptionAmountMultiple],
  ["min_redemption_units", "numeric", (r) => r.minRedemptionUnits],
  ["max_redemption_units", "numeric", (r) => r.maxRedemptionUnits],
  ["redemption_units_multiple", "numeric", (r) => r.redemptionUnitsMultiple],
  ["purchase_cut_off", "text", (r) => r.purchaseCutOff],
  ["redemption_cut_off", "text", (r) => r.redemptionCutOff],
  ["settlement_type", "text", (r) => r.settlementType],
  ["exit_load", "text", (r) => r.exitLoad],
  ["lock_in", "text", (r) => r.lockIn],
  ["start_date", "date", (r) => r.startDate],
  ["end_date", "date", (r) => r.endDate],
  ["reopening_date", "date", (r) => r.reopeningDate],
];

const SIP_COLUMNS: Array<[string, string, (r: ExchangeSipRecord) => unknown]> = [
  ["code", "text", (r) => r.code],
  ["frequency", "text", (r) => r.frequency],
  ["transaction_mode", "text", (r) => r.transactionMode],
  // unnest() flattens a 2-D array, so the days travel as text ('{1,5,10}') and are cast back per row.
  ["dates", "text", (r) => `{${r.dates.join(",")}}`],
  ["min_gap_days", "int", (r) => r.minGapDays],
  ["max_gap_days", "int", (r) => r.maxGapDays],
  ["installment_gap", "int", (r) => r.installmentGap],
  ["min_amount", "numeric", (r) => r.minAmount],
  ["max_amount", "numeric", (r) => r.maxAmount],
  ["multiple", "numeric", (r) => r.multiple],
  ["min_installments", "int", (r) => r.minInstallments],
  ["max_installments", "int", (r) => r.maxInstallments],
  ["pause_allowed", "boolean", (r) => r.pauseAllowed],
  ["pause_min_installments", "int", (r) => r.pauseMinInstallments],
  ["pause_max_installments", "int", (r) => r.pauseMaxInstallments],
  ["pause_modification_count", "int", (r) => r.pauseModificationCount],
  ["isin", "text", (r) => r.isin],
  ["active", "boolean", (r) => r.active],
];

/**
 * Upserts a chunk in one statement: a new key is inserted, a known one updated only when something
 * differs (an unchanged row is neither). Answers, per row written, whether it was inserted.
 */
async function upsertChunk<R>(
  db: DbOrTx,
  table: string,
  key: string[],
  columns: Array<[string, string, (r: R) => unknown]>,
  chunk: R[],
  extra: { column: string; value: string } | null,
): Promise<Array<{ inserted: boolean }>> {
  const names = columns.map(([name]) => name);
  const select = columns.map(([name, type]) => (name === "dates" ? `r.dates::int[]` : `r.${name}::${type}`));
  const unnest = columns.map(([, type], i) => `$${i + 1}::${type === "numeric" || type === "date" || type === "int" ? "text" : type}[]`).join(", ");
  const written = extra ? [...names, extra.column] : names;
  const updated = written.filter((n) => !key.includes(n));
  const sql = `INSERT INTO ${table} (${written.join(", ")}, updated_at)
    SELECT ${[...select, ...(extra ? [extra.value] : [])].join(", ")}, now() FROM unnest(${unnest}) AS r(${names.join(", ")})
    ON CONFLICT (${key.join(", ")}) DO UPDATE SET ${updated.map((n) => `${n} = excluded.${n}`).join(", ")}, updated_at = now()
    WHERE (${updated.map((n) => `${table}.${n}`).join(", ")}) IS DISTINCT FROM (${updated.map((n) => `excluded.${n}`).join(", ")})
    RETURNING (xmax = 0) AS inserted`;
  const values = columns.map(([, type, get]) => chunk.map((r) => {
    const v = get(r);
    return v === null || v === undefined ? null : type === "numeric" || type === "date" || type === "int" ? String(v) : v;
  }));
  return db.$queryRawUnsafe<Array<{ inserted: boolean }>>(sql, ...values);
}

const CHUNK = 1_000;

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

async function upsertAll<R>(db: DbOrTx, write: (chunk: R[]) => Promise<Array<{ inserted: boolean }>>, records: R[]): Promise<UpsertCounts> {
  const counts = { inserted: 0, updated: 0 };
  for (let i = 0; i < records.length; i += CHUNK) {
    const rows = await write(records.slice(i, i + CHUNK));
    const inserted = rows.filter((r) => r.inserted).length;
    counts.inserted += inserted;
    counts.updated += rows.length - inserted;
  }
  return counts;
}

/** Writes a scheme master's rows, all active (a reactivated code counts as updated). */
export function upsertExchangeSchemes(db: DbOrTx, records: ExchangeSchemeRecord[]): Promise<UpsertCounts> {
  return upsertAll(db, (chunk) => upsertChunk(db, "exchange_schemes", ["code"], SCHEME_COLUMNS, chunk, { column: "active", value: "true" }), records);
}

/** Marks inactive every active code the latest master does not list; answers how many. */
export async function deactivateExchangeSchemesExcept(db: DbOrTx, listed: readonly string[]): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE exchange_schemes SET active = false, updated_at = now() WHERE active AND NOT (code = ANY($1::text[]))`,
    [...listed],
  );
}

/** Writes a SIP master's rows (`active` as the row's SIP STATUS says). */
export function upsertSipRules(db: DbOrTx, records: ExchangeSipRecord[]): Promise<UpsertCounts> {
  return upsertAll(db, (chunk) => upsertChunk(db, "exchange_sip_rules", ["code", "frequency"], SIP_COLUMNS, chunk, null), records);
}

/** Marks inactive every active SIP rule the latest SIP master does not list; answers how many. */
export async function deactivateSipRulesExcept(db: DbOrTx, listed: ReadonlyArray<{ code: string; frequency: string }>): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE exchange_sip_rules SET active = false, updated_at = now()
      WHERE active AND (code, frequency) NOT IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    listed.map((l) => l.code),
    listed.map((l) => l.frequency),
  );
}

/** How many of these ISINs no scheme of ours carries (growth or reinvestment): exchange rows not linked yet. */
export async function unknownIsins(db: DbOrTx, isins: readonly string[]): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ isin: string }>>(
    `SELECT i.isin FROM unnest($1::text[]) AS i(isin)
      WHERE NOT EXISTS (SELECT 1 FROM schemes s WHERE s.isin_growth = i.isin)
        AND NOT EXISTS (SELECT 1 FROM schemes s WHERE s.isin_reinvestment = i.isin)`,
    [...new Set(isins)],
  );
  return rows.map((r) => r.isin);
}

/**
 * The scheme master's summary rule columns (schemes.purchase_allowed ... sip_multiple), derived from the
 * exchange rows in one statement: each scheme takes its preferred active code (mode BOTH, then PHYSICAL,
 * then DEMAT; the lowest Unique No) and that code's MONTHLY SIP rule; a scheme the exchange does not list
 * is closed, with no minimums. Placement never reads these columns: it checks the code it chose.
 * With them, schemes.lock_in: the lock-in text of any code of either ISIN (an active code's before an inactive
 * one's, then by code), which the PAN lookup and the placement's lock-in check read with the scheme's row.
 */
export async function deriveSchemeRules(db: DbOrTx): Promise<void> {
  await db.$executeRawUnsafe(`
    WITH preferred AS (
      SELECT DISTINCT ON (s.scheme_code) s.scheme_code, e.*
        FROM schemes s
        JOIN exchange_schemes e ON e.active AND (e.isin = s.isin_growth OR e.isin = s.isin_reinvestment)
       ORDER BY s.scheme_code, CASE e.transaction_mode WHEN 'BOTH' THEN 0 WHEN 'PHYSICAL' THEN 1 ELSE 2 END, e.unique_no NULLS LAST, e.code
    ), derived AS (
      SELECT s.scheme_code,
             COALESCE(p.purchase_allowed AND p.amc_active, false) AS purchase_allowed,
             COALESCE(p.redemption_allowed AND p.amc_active, false) AS redemption_allowed,
             COALESCE(p.sip_allowed AND p.amc_active, false) AS sip_allowed,
             p.min_purchase_amount, p.purchase_multiple, p.min_additional_amount, p.min_redemption_amount,
             r.min_amount AS min_sip_amount, r.multiple AS sip_multiple,
             (SELECT e.lock_in FROM exchange_schemes e
               WHERE e.isin IN (s.isin_growth, s.isin_reinvestment) AND e.lock_in IS NOT NULL
               ORDER BY e.active DESC, e.code LIMIT 1) AS lock_in
        FROM schemes s
        LEFT JOIN preferred p ON p.scheme_code = s.scheme_code
        LEFT JOIN exchange_sip_rules r ON r.code = p.code AND r.frequency = 'MONTHLY' AND r.active
    )
    UPDATE schemes s
       SET purchase_allowed = d.purchase_allowed, redemption_allowed = d.redemption_allowed, sip_allowed = d.sip_allowed,
           min_purchase_amount = d.min_purchase_amount, purchase_multiple = d.purchase_multiple,
           min_additional_amount = d.min_additional_amount, min_redemption_amount = d.min_redemption_amount,
           min_sip_amount = d.min_sip_amount, sip_multiple = d.sip_multiple, lock_in = d.lock_in
      FROM derived d
     WHERE s.scheme_code = d.scheme_code
       AND (s.purchase_allowed, s.redemption_allowed, s.sip_allowed, s.min_purchase_amount, s.purchase_multiple, s.min_additional_amount,
            s.min_redemption_amount, s.min_sip_amount, s.sip_multiple, s.lock_in)
           IS DISTINCT FROM
           (d.purchase_allowed, d.redemption_allowed, d.sip_allowed, d.min_purchase_amount, d.purchase_multiple, d.min_additional_amount,
            d.min_redemption_amount, d.min_sip_amount, d.sip_multiple, d.lock_in)`);
}
