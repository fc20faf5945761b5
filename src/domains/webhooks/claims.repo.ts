import type { Db } from "../../platform/db/client.js";
import { EVENT_NAMES, type EventName } from "../events/catalog.js";
import { narrowTo } from "../../platform/lib/closed-set.js";

export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event: EventName;
  payload: string;
  attempts: number;
  /** The lease's end as the database wrote it (the same for a whole claim): only its holder may release it. */
  lease_until: Date;
  /** The trace the delivery was created in (tracing on), continued by its attempt's span. */
  traceparent: string | null;
}

export interface ClaimLimits {
  /** Deliveries one claim takes at most. */
  batch: number;
  /** Deliveries of one distributor held by all jobs at once (this claim's included). */
  perDistributor: number;
  /** Deliveries of one subscription held by all jobs at once (this claim's included). */
  perSubscription: number;
  /** How long the claimed deliveries stay reserved for this job. */
  leaseMs: number;
}

/** Claims are taken one at a time (a claim takes milliseconds), so the in-flight caps count every job's. */
const CLAIM_LOCK = "webhook_deliveries:claim";

/**
 * Takes due deliveries no other job holds, fairly: each distributor's oldest due ones (at most
 * `perDistributor`, minus those jobs hold already; per subscription likewise), then round-robin across
 * distributors (each one's first, then each one's second, ...) up to `batch`, leasing them for `leaseMs`.
 * One distributor's backlog, however large, fills at most its share of a batch and of the deliveries in
 * flight, so another's due deliveries are claimed by the next job. Answers them in that round-robin order.
 */
export async function claimDueDeliveries(db: Db, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  const rows = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, CLAIM_LOCK);
    // The chosen ids are one array, leased by the primary key; the re-check of each row (still PENDING, not leased:
    // a delivery finished meanwhile is skipped) is a CASE so the planner cannot take it for a range of the status
    // index: at 20M deliveries it drove the update from every unleased PENDING row and ran the fair ranking again
    // for each (54 ms and 79,800 rows thrown away for a batch of 200; docs/benchmarks.md, bench:scale).
    return tx.$queryRawUnsafe<Array<Omit<ClaimedDelivery, "event"> & { event: string; turn: number }>>(
      `WITH held AS (
         SELECT distributor_id, subscription_id, count(*)::int AS n FROM webhook_deliveries
          WHERE lease_until >= now() AND status = 'PENDING'
          GROUP BY distributor_id, subscription_id
       ),
       candidates AS (
         SELECT c.* FROM (SELECT DISTINCT distributor_id FROM webhook_subscriptions) d
          CROSS JOIN LATERAL (
            SELECT w.id, w.distributor_id, w.subscription_id, w.next_attempt_at FROM webhook_deliveries w
             WHERE w.distributor_id = d.distributor_id AND w.status = 'PENDING'
               AND w.next_attempt_at <= now() + interval '250 milliseconds'
               AND (w.lease_until IS NULL OR w.lease_until < now())
             ORDER BY w.next_attempt_at
             LIMIT $2) c
       ),
       ranked AS (
         SELECT c.id, c.next_attempt_at,
                row_number() OVER (PARTITION BY c.distributor_id ORDER BY c.next_attempt_at, c.id)
                  + coalesce((SELECT sum(h.n) FROM held h WHERE h.distributor_id = c.distributor_id), 0) AS distributor_turn,
                row_number() OVER (PARTITION BY c.subscription_id ORDER BY c.next_attempt_at, c.id)
                  + coalesce((SELECT h.n FROM held h WHERE h.subscription_id = c.subscription_id), 0) AS subscription_turn
           FROM candidates c
       ),
       chosen AS (
         SELECT id, row_number() OVER (ORDER BY distributor_turn, next_attempt_at, id) AS turn FROM ranked
          WHERE distributor_turn <= $2 AND subscription_turn <= $3
          ORDER BY distributor_turn, next_attempt_at, id
          LIMIT $1
       ),
       picked AS MATERIALIZED (SELECT ARRAY(SELECT id FROM chosen ORDER BY turn) AS ids)
       UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $4)
         FROM picked
        WHERE d.id = ANY(picked.ids)
          AND CASE WHEN d.status = 'PENDING' THEN d.lease_until IS NULL OR d.lease_until < now() ELSE false END
       RETURNING d.id, d.subscription_id, d.event, d.payload, d.attempts, d.lease_until, d.traceparent, array_position(picked.ids, d.id) AS turn`,
      limits.batch,
      limits.perDistributor,
      limits.perSubscription,
      limits.leaseMs / 1000,
    );
  });
  return rows
    .sort((a, b) => a.turn - b.turn)
    .map(({ turn: _turn, ...row }) => ({ ...row, event: narrowTo(EVENT_NAMES, row.event, "webhook_deliveries.event") }));
}
