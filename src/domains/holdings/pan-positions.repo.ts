import { readRows, type DbOrTx } from "../../platform/db/client.js";
import type { PositionRow } from "./holdings.repo.js";
import type { PositionKey, PositionTxnRow } from "./position-txns.repo.js";

/** A transaction of one position as the statement below carries it (its key is the position's). */
export type PositionTxnOfRow = Omit<PositionTxnRow, keyof PositionKey>;

/** As the statement gives it: with when it was imported (created_at, in microseconds since 1970), which orders same-day ones. */
type ImportedTxn = PositionTxnOfRow & { imported_at: number };

/** A servable position with what its figures need: its scheme's facts (null when our master lacks it) and its transactions. */
export interface PositionWithHistory extends PositionRow {
  category: string | null;
  lock_in: string | null;
  /** In date order, same-day ones in the order they were imported; numbers as text (exact). */
  txns: PositionTxnOfRow[];
}

/**
 * The lookups' read in one statement (the positions of one PAN hash under one distributor, single-holder folios
 * only, each with its scheme's facts and its transactions as a JSON array), where positionsByPanHash,
 * transactionsOfPositions and schemeFacts took three: on this hot read each statement's cost in the client, not
 * PostgreSQL's work, was most of the time (docs/benchmarks.md, bench:hot-reads); it goes by readRows for the same reason.
 */
const POSITIONS_WITH_HISTORY = `SELECT p.registrar, p.amc_code, p.amc_name, p.folio_no, p.scheme_code, p.isin, p.scheme_name, p.units, p.nav, p.nav_date,
       p.market_value, p.balance_date, s.category, s.lock_in,
       COALESCE((SELECT json_agg(json_build_object(
           'txn_no', t.txn_no, 'type', t.type, 'trade_date', t.trade_date::text, 'units', t.units::text,
           'amount_paise', t.amount_paise::text, 'stamp_duty_paise', t.stamp_duty_paise::text, 'reverses_txn_no', t.reverses_txn_no,
           'imported_at', (extract(epoch FROM t.created_at) * 1000000)::bigint))
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
  const rows = await readRows<PositionWithHistory & { txns: ImportedTxn[] }>(db, POSITIONS_WITH_HISTORY, panHash, distributorId);
  for (const row of rows) if (row.txns.length > 1) row.txns.sort(inImportOrder);
  return rows;
}

/**
 * By trade date, same-day ones in the order they were imported (created_at, then transaction number, as texts
 * compare in the C collation). Sorted here rather than by an ordered json_agg: that sorted every position's
 * transactions in PostgreSQL, the many with none included, about a sixth of the statement's CPU (docs/benchmarks.md).
 */
function inImportOrder(a: ImportedTxn, b: ImportedTxn): number {
  if (a.trade_date !== b.trade_date) return a.trade_date < b.trade_date ? -1 : 1;
  if (a.imported_at !== b.imported_at) return a.imported_at - b.imported_at;
  return a.txn_no < b.txn_no ? -1 : 1; // never equal: one position's transactions have numbers of their own
}
