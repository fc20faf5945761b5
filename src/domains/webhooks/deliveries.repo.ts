import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { EVENT_NAMES, type EventName } from "../events/catalog.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { DELIVERY_STATUSES, type DeliveryStatus } from "./webhook.states.js";

export type DeliveryRow = Omit<Prisma.WebhookDeliveryGetPayload<object>, "status" | "event"> & { status: DeliveryStatus; event: EventName };

const eventName = (event: string): EventName => narrowTo(EVENT_NAMES, event, "webhook_deliveries.event");

function toRow(row: Prisma.WebhookDeliveryGetPayload<object>): DeliveryRow {
  return { ...row, status: narrowTo(DELIVERY_STATUSES, row.status, "webhook_deliveries.status"), event: eventName(row.event) };
}
export type AttemptRow = Prisma.WebhookAttemptGetPayload<object>;

/** New PENDING deliveries, due now. */
export async function insertDeliveries(
  tx: DbOrTx,
  deliveries: Array<{ id: string; distributorId: string; subscriptionId: string; eventId: string; event: EventName; payload: string; nextAttemptAt: Date }>,
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

/**
 * A disabled subscription's PENDING deliveries no job holds -> PARKED (a retry or a replay sends them once it is
 * enabled again); the ones a job holds are parked at their turn. Answers how many were parked.
 */
export async function parkUnheldPending(tx: DbOrTx, subscriptionId: string, reason: string): Promise<number> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { subscriptionId, status: "PENDING", OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    data: { status: "PARKED", nextAttemptAt: null, leaseUntil: null, lastError: reason },
  });
  return count;
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

/** Leases given back unused, if still the holder's: the deliveries are claimable again at once. */
export async function releaseLeases(tx: DbOrTx, leases: Array<{ id: string; leaseUntil: Date }>): Promise<void> {
  if (leases.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE webhook_deliveries d SET lease_until = NULL
       FROM unnest($1::text[], $2::timestamptz[]) AS l(id, lease_until)
      WHERE d.id = l.id AND d.status = 'PENDING' AND d.lease_until = l.lease_until`,
    leases.map((l) => l.id),
    leases.map((l) => l.leaseUntil),
  );
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
