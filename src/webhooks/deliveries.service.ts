import type { Prisma } from "../db/client.js";
import { enqueue } from "../jobs/enqueue.js";
import { invalidState, notFound } from "../lib/errors.js";
import { readCursor, toPage } from "../lib/zod.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<object>;

function toRecord(row: DeliveryRow) {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    event: row.event,
    status: row.status as "PENDING" | "DELIVERED" | "PARKED" | "FAILED",
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    next_attempt_at: row.status === "PENDING" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listDeliveries(
  services: Services,
  caller: Caller,
  query: { status?: string; event?: string; limit: number; cursor?: string },
) {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const event = query.event?.endsWith(".*") ? { startsWith: query.event.slice(0, -1) } : query.event;
  const rows = await services.prisma.webhookDelivery.findMany({
    where: {
      distributorId: caller.distributorId,
      ...(query.status ? { status: query.status } : {}),
      ...(event ? { event } : {}),
      ...(afterId ? { id: { lt: afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return { success: true as const, ...toPage(rows, query.limit, (row) => [row.id], toRecord) };
}

export async function getDelivery(services: Services, caller: Caller, id: string) {
  const row = await services.prisma.webhookDelivery.findFirst({ where: { id, distributorId: caller.distributorId } });
  if (!row) throw notFound(`Webhook delivery ${id}`);
  const attempts = await services.prisma.webhookAttempt.findMany({ where: { deliveryId: id }, orderBy: { attemptNo: "asc" } });
  return {
    success: true as const,
    data: {
      ...toRecord(row),
      payload: row.payload,
      attempt_log: attempts.map((a) => ({
        attempt: a.attemptNo,
        attempted_at: a.attemptedAt.toISOString(),
        status_code: a.statusCode,
        error: a.error,
        latency_ms: a.latencyMs,
        response_body: a.responseBody,
      })),
    },
  };
}

/** PARKED or FAILED -> PENDING, attempted at once (if that attempt fails, it parks again). */
export async function retryDelivery(services: Services, caller: Caller, id: string) {
  const row = await services.prisma.webhookDelivery.findFirst({ where: { id, distributorId: caller.distributorId } });
  if (!row) throw notFound(`Webhook delivery ${id}`);
  const updated = await services.prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id, status: { in: ["PARKED", "FAILED"] } },
      data: { status: "PENDING", nextAttemptAt: new Date(), leaseUntil: null },
    });
    if (count !== 1) throw invalidState(`Delivery ${id} is ${row.status}; only a PARKED or FAILED delivery can be retried`);
    await enqueue(tx, "webhooks__deliver", {}, { jobKey: `webhooks__deliver:retry:${id}` });
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id } });
  });
  return { success: true as const, data: toRecord(updated) };
}
