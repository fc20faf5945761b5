import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { EVENT_NAMES, type EventName } from "../events/catalog.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { idFloor } from "../../platform/lib/ids.js";
import { DELIVERY_STATUSES, type DeliveryStatus } from "./webhook.states.js";

export type DeliveryRow = Omit<Prisma.WebhookDeliveryGetPayload<object>, "status" | "event"> & { status: DeliveryStatus; event: EventName };

const eventName = (event: string): EventName => narrowTo(EVENT_NAMES, event, "webhook_deliveries.event");

function toRow(row: Prisma.WebhookDeliveryGetPayload<object>): DeliveryRow {
  return { ...row, status: narrowTo(DELIVERY_STATUSES, row.status, "webhook_deliveries.status"), event: eventName(row.event) };
}
export type AttemptRow = Prisma.WebhookAttemptGetPayload<object>;

/** New PENDING deliveries, due at `nextAttemptAt` (null: never due, no job claims it; a test's, sent by its request). */
export async function insertDeliveries(
  tx: DbOrTx,
  deliveries: Array<{ id: string; distributorId: string; subscriptionId: string; eventId: string; event: EventName; payload: string; nextAttemptAt: Date | null }>,
): Promise<void> {
  await tx.webhookDelivery.createMany({ data: deliveries.map((d) => ({ ...d, status: "PENDING" })) });
}

export async function listDeliveries(
  db: DbOrTx,
  filter: { distributorId: string; status?: DeliveryStatus; event?: string | { startsWith: string }; afterId?: string; limit: number },
): Promise<DeliveryRow[]> {
  const rows = await db.webhookDelivery.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.event ? { event: filter.event } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}

/** One delivery of one distributor; another distributor's id finds nothing. */
export async function findDelivery(db: DbOrTx, distributorId: string, id: string): Promise<DeliveryRow | null> {
  const row = await db.webhookDelivery.findFirst({ where: { id, distributorId } });
  return row && toRow(row);
}

export async function getDeliveryById(db: DbOrTx, id: string): Promise<DeliveryRow> {
  return toRow(await db.webhookDelivery.findUniqueOrThrow({ where: { id } }));
}

export async function listAttempts(db: DbOrTx, deliveryId: string): Promise<AttemptRow[]> {
  return db.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { attemptNo: "asc" } });
}

/** PARKED or FAILED -> PENDING, due now and free of any lease; false when it was in neither state. */
export async function requeueDelivery(tx: DbOrTx, id: string): Promise<boolean> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { id, status: { in: ["PARKED", "FAILED"] } },
    data: { status: "PENDING", nextAttemptAt: new Date(), leaseUntil: null },
  });
  return count === 1;
}

export interface ReplayFilter {
  distributorId: string;
  statuses: Array<"FAILED" | "PARKED">;
  since: Date;
  until: Date;
  /** An exact event name, or `{startsWith}` for a `<resource>.*` wildcard. */
  event?: string | { startsWith: string };
  /** Events never replayed (the direct ones: a test is not sent again). */
  excludedEvents: readonly string[];
}

/**
 * Locks and answers up to `limit` of a distributor's deliveries that a replay may queue: in one of `statuses`,
 * created in [since, until), of an ACTIVE subscription (a deleted one's would only fail again). Rows another
 * transaction holds are skipped, so two identical replays at once queue each delivery once.
 */
export async function lockReplayable(tx: DbOrTx, filter: ReplayFilter, limit: number): Promise<string[]> {
  const exact = typeof filter.event === "string" ? filter.event : null;
  const prefix = typeof filter.event === "object" ? filter.event.startsWith : null;
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT d.id FROM webhook_deliveries d
      WHERE d.distributor_id = $1 AND d.status = ANY($2::text[]) AND d.created_at >= $3 AND d.created_at < $4
        AND d.event <> ALL($5::text[]) AND ($6::text IS NULL OR d.event = $6) AND ($7::text IS NULL OR starts_with(d.event, $7))
        AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.status = 'ACTIVE')
      ORDER BY d.id
      LIMIT $8
      FOR UPDATE OF d SKIP LOCKED`,
    filter.distributorId,
    filter.statuses,
    filter.since,
    filter.until,
    filter.excludedEvents,
    exact,
    prefix,
    limit,
  );
  return rows.map((row) => row.id);
}

/** PARKED or FAILED -> PENDING for each of `ids`, due now and free of any lease; answers how many moved. */
export async function requeueDeliveries(tx: DbOrTx, ids: string[]): Promise<number> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { id: { in: ids }, status: { in: ["PARKED", "FAILED"] } },
    data: { status: "PENDING", nextAttemptAt: new Date(), leaseUntil: null },
  });
  return count;
}

/** When each of a subscription's deliveries of `event` made since `since` was created, oldest first (over the distributor's id index). */
export async function deliveriesMadeSince(tx: DbOrTx, filter: { distributorId: string; subscriptionId: string; event: EventName; since: Date }): Promise<Date[]> {
  const rows = await tx.webhookDelivery.findMany({
    where: { distributorId: filter.distributorId, id: { gte: idFloor("whd", filter.since.getTime()) }, subscriptionId: filter.subscriptionId, event: filter.event },
    select: { createdAt: true },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => row.createdAt);
}

/** PENDING deliveries due before `dueBefore` that no job holds (no lease, or a lease run out). */
export async function countUnheldDueBefore(db: DbOrTx, dueBefore: Date): Promise<number> {
  return db.webhookDelivery.count({
    where: {
      status: "PENDING",
      nextAttemptAt: { lt: dueBefore },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }],
    },
  });
}

export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event: EventName;
  payload: string;
  attempts: number;
}

/** Takes up to `limit` due deliveries no other job holds, leasing them (a lease that runs out frees them again). */
export async function claimDueDeliveries(db: DbOrTx, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const rows = await db.$queryRawUnsafe<Array<Omit<ClaimedDelivery, "event"> & { event: string }>>(
    `UPDATE webhook_deliveries SET lease_until = now() + make_interval(secs => $2)
      WHERE id IN (
        SELECT id FROM webhook_deliveries
         WHERE status = 'PENDING' AND next_attempt_at <= now() + interval '250 milliseconds'
           AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
      RETURNING id, subscription_id, event, payload, attempts`,
    limit,
    leaseSeconds,
  );
  return rows.map((row) => ({ ...row, event: eventName(row.event) }));
}

/** Attempts as made; a repeated one (same delivery and number) is kept once. */
export async function insertAttempts(
  tx: DbOrTx,
  attempts: Array<{ deliveryId: string; attemptNo: number; attemptedAt: Date; statusCode: number | null; error: string | null; latencyMs: number; responseBody: string }>,
): Promise<void> {
  if (attempts.length > 0) await tx.webhookAttempt.createMany({ data: attempts, skipDuplicates: true });
}

export interface DeliveryOutcome {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  /** Whether an attempt was made; only then is its status code recorded. */
  attempted: boolean;
  statusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

/** Writes a batch's outcomes to deliveries still PENDING in one statement, releasing their leases. */
export async function applyOutcomes(tx: DbOrTx, outcomes: DeliveryOutcome[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE webhook_deliveries d
        SET status = u.status, attempts = u.attempts,
            last_status_code = CASE WHEN u.attempted THEN u.status_code ELSE d.last_status_code END,
            last_error = u.last_error, next_attempt_at = u.next_attempt_at, lease_until = NULL,
            delivered_at = CASE WHEN u.status = 'DELIVERED' THEN now() ELSE d.delivered_at END, updated_at = now()
       FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::timestamptz[], $7::boolean[])
            AS u(id, status, attempts, status_code, last_error, next_attempt_at, attempted)
      WHERE d.id = u.id AND d.status = 'PENDING'`,
    outcomes.map((o) => o.id),
    outcomes.map((o) => o.status),
    outcomes.map((o) => o.attempts),
    outcomes.map((o) => o.statusCode),
    outcomes.map((o) => o.lastError),
    outcomes.map((o) => o.nextAttemptAt),
    outcomes.map((o) => o.attempted),
  );
}
