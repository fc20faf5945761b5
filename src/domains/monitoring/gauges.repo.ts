import type { Db } from "../../platform/db/client.js";

/** One count of the gauges' sample: what it counts (`kind`), of what (`key`: a status or a task; "" when single). */
export interface GaugeCount {
  kind: "orders" | "orders_stuck_pending" | "webhook_deliveries_parked" | "job_queue";
  key: string;
  count: number;
}

/** Orders not yet in a final state: the statuses mf_orders counts (the others only grow, see gauges.ts). */
export const LIVE_ORDER_STATUSES = ["PENDING", "ACCEPTED"] as const;

/**
 * Everything the sampled gauges show, in one statement, each part on an index: orders by live status and those
 * PENDING for over $2 minutes (orders' (status, exchange_order_number) index, a range per status), PARKED
 * deliveries (webhook_deliveries_parked_idx, partial), and graphile-worker's due and unlocked jobs by
 * task (its partial jobs_main_index, which covers task_id: the waiting jobs only). $1: the live statuses.
 */
export const GAUGE_COUNTS_SQL = `
  SELECT 'orders' AS kind, status AS key, count(*) AS count FROM orders WHERE status = ANY($1::text[]) GROUP BY status
  UNION ALL
  SELECT 'orders_stuck_pending', '', count(*) FROM orders WHERE status = 'PENDING' AND created_at < now() - make_interval(mins => $2::int)
  UNION ALL
  SELECT 'webhook_deliveries_parked', '', count(*) FROM webhook_deliveries WHERE status = 'PARKED'
  UNION ALL
  SELECT 'job_queue', t.identifier, q.count FROM (
    SELECT task_id, count(*) AS count FROM graphile_worker._private_jobs WHERE is_available AND run_at <= now() GROUP BY task_id
  ) q JOIN graphile_worker._private_tasks t ON t.id = q.task_id`;

export async function gaugeCounts(db: Db, stuckAfterMinutes: number): Promise<GaugeCount[]> {
  const rows = await db.$queryRawUnsafe<Array<{ kind: GaugeCount["kind"]; key: string; count: bigint }>>(GAUGE_COUNTS_SQL, [...LIVE_ORDER_STATUSES], stuckAfterMinutes);
  return rows.map((r) => ({ kind: r.kind, key: r.key, count: Number(r.count) }));
}
