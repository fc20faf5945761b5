import type { DbOrTx } from "../../platform/db/client.js";

/** Which settled deliveries a purge batch takes: DELIVERED ones by delivered_at, PARKED and FAILED ones by their last move. */
export type PurgeKind = "DELIVERED" | "PARKED_OR_FAILED";

/**
 * Each kind's pick, written to match its partial index (migration 20261128034500_webhook_retention), so
 * PostgreSQL reads the index from its oldest entry and stops after `limit`: no scan of the table, whatever its size.
 */
const PICKS: Record<PurgeKind, string> = {
  DELIVERED: `SELECT id FROM webhook_deliveries
               WHERE status = 'DELIVERED' AND delivered_at < $1
               ORDER BY delivered_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
  PARKED_OR_FAILED: `SELECT id FROM webhook_deliveries
                      WHERE status IN ('PARKED', 'FAILED') AND updated_at < $1
                      ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
};

/** The statement one purge batch sends (exported for the plan test). */
export function purgeBatchSql(kind: PurgeKind): string {
  // One statement, so one short transaction: the rows picked are locked (rows another transaction holds, a retry
  // moving a PARKED one, are skipped), their attempts deleted (webhook_attempts has no foreign key to cascade),
  // then the deliveries. The ids travel as one array so both deletes are lookups by primary key, never joins.
  return `WITH picked AS (SELECT array_agg(id) AS ids FROM (${PICKS[kind]}) p),
          attempts_gone AS (DELETE FROM webhook_attempts WHERE delivery_id = ANY((SELECT ids FROM picked)::text[]) RETURNING 1)
          DELETE FROM webhook_deliveries WHERE id = ANY((SELECT ids FROM picked)::text[])
          RETURNING (SELECT count(*) FROM attempts_gone)::int AS attempts`;
}

/** Deletes at most `limit` of the oldest settled deliveries of `kind` older than `before`, with their attempts. */
export async function purgeBatch(db: DbOrTx, kind: PurgeKind, before: Date, limit: number): Promise<{ deliveries: number; attempts: number }> {
  const rows = await db.$queryRawUnsafe<Array<{ attempts: number }>>(purgeBatchSql(kind), before, limit);
  return { deliveries: rows.length, attempts: rows[0]?.attempts ?? 0 };
}
