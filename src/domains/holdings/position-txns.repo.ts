import type { DbOrTx } from "../../platform/db/client.js";

/** A position's key as the lookups show it: the registrar, the folio and the scheme (ours, else the registrar's). */
export interface PositionKey {
  registrar: string;
  folio_no: string;
  scheme_code: string;
}

/** A holding_transactions row as the portfolio computations read it (decimals and paise as text). */
export interface PositionTxnRow extends PositionKey {
  txn_no: string;
  type: string;
  trade_date: string;
  units: string | null;
  amount_paise: string | null;
  stamp_duty_paise: string | null;
  reverses_txn_no: string | null;
}

/** The columns of a PositionTxnRow, from holding_transactions as `t`. */
export const POSITION_TXN_COLUMNS = `t.registrar, t.folio_no, coalesce(t.scheme_code, t.registrar_scheme_code) AS scheme_code, t.txn_no, t.type,
            t.trade_date::text AS trade_date, t.units::text AS units, t.amount_paise::text AS amount_paise,
            t.stamp_duty_paise::text AS stamp_duty_paise, t.reverses_txn_no`;

/**
 * Every transaction of the given positions under one distributor, in one query (never one per position), in
 * date order; same-day transactions in the order they were imported.
 */
export async function transactionsOfPositions(db: DbOrTx, distributorId: string, keys: readonly PositionKey[]): Promise<PositionTxnRow[]> {
  if (keys.length === 0) return [];
  return db.$queryRawUnsafe<PositionTxnRow[]>(
    `SELECT ${POSITION_TXN_COLUMNS}
       FROM holding_transactions t
       JOIN unnest($2::text[], $3::text[], $4::text[]) AS k(registrar, folio_no, scheme_code)
         ON t.registrar = k.registrar AND t.folio_no = k.folio_no AND coalesce(t.scheme_code, t.registrar_scheme_code) = k.scheme_code
      WHERE t.distributor_id = $1
      ORDER BY t.trade_date, t.created_at, t.txn_no`,
    distributorId,
    keys.map((k) => k.registrar),
    keys.map((k) => k.folio_no),
    keys.map((k) => k.scheme_code),
  );
}

/** What the figures need of a scheme: its AMFI category and the exchange master's lock-in text. */
export interface SchemeFactsRow {
  scheme_code: string;
  category: string;
  lock_in: string | null;
}

export async function schemeFacts(db: DbOrTx, schemeCodes: readonly string[]): Promise<SchemeFactsRow[]> {
  if (schemeCodes.length === 0) return [];
  return db.$queryRawUnsafe<SchemeFactsRow[]>(
    `SELECT s.scheme_code, s.category, s.lock_in FROM schemes s WHERE s.scheme_code = ANY($1::text[])`,
    [...new Set(schemeCodes)],
  );
}

/** The positions of one folio in one scheme under a distributor, across registrars: the placement lock-in check. */
export async function folioPositions(db: DbOrTx, distributorId: string, folioNo: string, schemeCode: string): Promise<Array<PositionKey & { units: string }>> {
  return db.$queryRawUnsafe(
    `SELECT registrar, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, units::text AS units
       FROM holding_positions
      WHERE distributor_id = $1 AND folio_no = $2 AND coalesce(scheme_code, registrar_scheme_code) = $3`,
    distributorId,
    folioNo,
    schemeCode,
  );
}
