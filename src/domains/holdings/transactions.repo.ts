import type { DbOrTx } from "../../platform/db/client.js";

/** A stored registrar transaction as the history lists read it; money in paise, decimals and dates as exact text. */
export interface TransactionRow {
  registrar: string;
  amc_code: string;
  txn_no: string;
  folio_no: string;
  scheme_code: string;
  scheme_name: string | null;
  isin: string | null;
  type: string;
  registrar_type_code: string;
  reverses_txn_no: string | null;
  trade_date: string;
  post_date: string | null;
  amount_paise: string | null;
  units: string | null;
  nav: string | null;
  stamp_duty_paise: string | null;
  stt_paise: string | null;
  tds_paise: string | null;
}

export interface TransactionFilter {
  folioNo?: string;
  schemeCode?: string;
  type?: string;
  from?: string;
  to?: string;
  /** The last row of the previous page: trade date, registrar, AMC code, transaction number. */
  after?: string[];
  limit: number;
}

/**
 * One page of a PAN's transactions (by its keyed hash) under one distributor, newest first (trade date, then
 * registrar, AMC code and transaction number, all descending). Only folios the registrars report as single-holder
 * with this PAN as the holder: a transaction whose folio has no such position is not served (a joint folio's first
 * holder never sees it). Read through indexes the import keeps anyway (no index of its own, to keep the feed import
 * fast): the PAN's positions by their PAN hash, then those folios' transactions by the PAN hash and the
 * (distributor_id, folio_no, ...) index; a PAN's rows are few, so ordering them is cheap.
 */
export async function transactionsByPanHash(db: DbOrTx, distributorId: string, panHash: string, f: TransactionFilter): Promise<TransactionRow[]> {
  const { sql, params } = transactionsQuery(distributorId, panHash, f);
  return db.$queryRawUnsafe<TransactionRow[]>(sql, ...params);
}

/** The statement the lists run (also what the index test in test/holdings/transactions-lookup.test.ts EXPLAINs). */
export function transactionsQuery(distributorId: string, panHash: string, f: TransactionFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [distributorId, panHash];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (f.folioNo !== undefined) where.push(`t.folio_no = ${param(f.folioNo)}`);
  if (f.schemeCode !== undefined) where.push(`coalesce(t.scheme_code, t.registrar_scheme_code) = ${param(f.schemeCode)}`);
  if (f.type !== undefined) where.push(`t.type = ${param(f.type)}`);
  if (f.from !== undefined) where.push(`t.trade_date >= ${param(f.from)}::date`);
  if (f.to !== undefined) where.push(`t.trade_date <= ${param(f.to)}::date`);
  if (f.after !== undefined) {
    const [date, registrar, amc, txn] = f.after;
    where.push(`(t.trade_date, t.registrar, t.amc_code, t.txn_no) < (${param(date)}::date, ${param(registrar)}, ${param(amc)}, ${param(txn)})`);
  }
  const sql =
    `SELECT t.registrar, t.amc_code, t.txn_no, t.folio_no, coalesce(t.scheme_code, t.registrar_scheme_code) AS scheme_code,
            coalesce(s.name, t.scheme_name) AS scheme_name, t.isin, t.type, t.registrar_type_code, t.reverses_txn_no,
            t.trade_date::text AS trade_date, t.post_date::text AS post_date, t.amount_paise::text AS amount_paise,
            t.units::text AS units, t.nav::text AS nav, t.stamp_duty_paise::text AS stamp_duty_paise,
            t.stt_paise::text AS stt_paise, t.tds_paise::text AS tds_paise
       FROM holding_transactions t
       LEFT JOIN schemes s ON s.scheme_code = t.scheme_code
      WHERE t.distributor_id = $1 AND t.pan_hash = $2
        AND EXISTS (SELECT 1 FROM holding_positions p
                     WHERE p.distributor_id = t.distributor_id AND p.registrar = t.registrar AND p.folio_no = t.folio_no
                       AND p.amc_code = t.amc_code AND p.pan_hash = t.pan_hash AND p.holding_nature = 'SINGLE')
        ${where.map((w) => `AND ${w}`).join("\n        ")}
      ORDER BY t.trade_date DESC, t.registrar DESC, t.amc_code DESC, t.txn_no DESC
      LIMIT ${param(f.limit + 1)}`;
  return { sql, params };
}
