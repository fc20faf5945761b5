import type { DbOrTx } from "../../platform/db/client.js";
import { POSITION_TXN_COLUMNS, type PositionTxnRow } from "./position-txns.repo.js";

/**
 * Every transaction of one PAN's (by its keyed hash) folios under a distributor, in date order: a position
 * redeemed to nothing still has its sales. Folios the registrars report as jointly held are left out, as the
 * holdings lookups leave them out.
 */
export async function transactionsOfPan(db: DbOrTx, distributorId: string, panHash: string): Promise<Array<PositionTxnRow & { scheme_name: string | null }>> {
  return db.$queryRawUnsafe(
    `SELECT ${POSITION_TXN_COLUMNS}, t.scheme_name
       FROM holding_transactions t
      WHERE t.distributor_id = $1 AND t.pan_hash = $2
        AND NOT EXISTS (SELECT 1 FROM holding_positions p
                         WHERE p.distributor_id = t.distributor_id AND p.registrar = t.registrar AND p.folio_no = t.folio_no
                           AND p.holding_nature <> 'SINGLE')
      ORDER BY t.trade_date, t.created_at, t.txn_no`,
    distributorId,
    panHash,
  );
}

/** The NAV of each scheme on one date (AMFI's historical NAVs, nav_history, imported by masters), where known. */
export async function navsOn(db: DbOrTx, schemeCodes: readonly string[], date: string): Promise<Map<string, string>> {
  if (schemeCodes.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Array<{ scheme_code: string; nav: string }>>(
    `SELECT scheme_code, nav::text AS nav FROM nav_history WHERE nav_date = $1::date AND scheme_code = ANY($2::text[])`,
    date,
    [...new Set(schemeCodes)],
  );
  return new Map(rows.map((r) => [r.scheme_code, r.nav]));
}
