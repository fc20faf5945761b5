import { readRows, type DbOrTx } from "../../platform/db/client.js";
import type { PositionRow } from "./holdings.repo.js";
import type { PositionKey, PositionTxnRow } from "./position-txns.repo.js";

/** A transaction of one position as the lookups read it (its key is the position's). */
export type PositionTxnOfRow = Omit<PositionTxnRow, keyof PositionKey>;

/** A transaction as the statement below carries it: its columns in this order, as a JSON array. */
type TxnColumns = [txn_no: string, type: string, trade_date: string, units: string | null, amount_paise: string | null, stamp_duty_paise: string | null, reverses_txn_no: string | null];

/** A servable position with what its figures need: its scheme's facts (null when our master lacks it) and its transactions. */
export interface PositionWithHistory extends PositionRow {
  category: string | null;
  lock_in: string | null;
  /** In date order, same-day ones in the order they were imported; numbers as text (exact). */
  txns: PositionTxnOfRow[];
}

/**
 * The lookups' read in one statement (the positions of one PAN hash under one distributor, single-holder folios
 * only, each with its scheme's facts and its transactions as a JSON array of arrays), where positionsByPanHash,
 * transactionsOfPositions and schemeFacts took three: on this hot read each statement's cost in the client, not
 * PostgreSQL's work, was most of the time (docs/benchmarks.md, bench:hot-reads); it goes by readRows for the same reason.
 */
const POSITIONS_WITH_HISTORY = `SELECT p.registrar, p.amc_code, p.amc_name, p.folio_no, p.scheme_code, p.isin, p.scheme_name, p.units, p.nav, p.nav_date,
       p.market_value, p.balance_date, s.category, s.lock_in,
       COALESCE((SELECT json_agg(json_build_array(
           t.txn_no, t.type, t.trade_date::text, t.units::text, t.amount_paise::text, t.stamp_duty_paise::text, t.reverses_txn_no)
           ORDER BY t.trade_date, t.created_at, t.txn_no)
         FROM holding_transactions t
        WHERE t.distributor_id = p.distributor_id AND t.registrar = p.registrar AND t.folio_no = p.folio_no
          AND coalesce(t.scheme_code, t.registrar_scheme_code) = p.scheme_code), '[]'::json) AS txns
  FROM (SELECT distributor_id, registrar, amc_code, amc_name, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, isin,
               scheme_name, units::text AS units, nav::text AS nav, nav_date::text AS nav_date,
               market_value::text AS market_value, balance_date::text AS balance_date, registrar_scheme_code
          FROM holding_positions
         WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE') AS p
  LEFT JOIN schemes s ON s.scheme_code = p.scheme_code
 ORDER BY p.registrar, p.amc_code, p.folio_no, p.registrar_scheme_code`;

export async function positionsWithHistory(db: DbOrTx, distributorId: string, panHash: string): Promise<PositionWithHistory[]> {
  const rows = await readRows<Omit<PositionWithHistory, "txns"> & { txns: TxnColumns[] | PositionTxnOfRow[] }>(db, POSITIONS_WITH_HISTORY, panHash, distributorId);
  // Each row's arrays replaced by objects, in place.
  for (const row of rows) row.txns = (row.txns as TxnColumns[]).map(txnOfColumns);
  return rows as PositionWithHistory[];
}

function txnOfColumns([txn_no, type, trade_date, units, amount_paise, stamp_duty_paise, reverses_txn_no]: TxnColumns): PositionTxnOfRow {
  return { txn_no, type, trade_date, units, amount_paise, stamp_duty_paise, reverses_txn_no };
}
