import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState, notFound } from "../../platform/lib/errors.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./deliveries.repo.js";
import type { DeliveryRow } from "./deliveries.repo.js";
import type { DeliveryStatus } from "./webhook.states.js";

function toRecord(row: DeliveryRow) {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    event: row.event,
    status: row.status,
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
  query: { status?: DeliveryStatus; event?: string; limit: number; cursor?: string },
) {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const event = query.event?.endsWith(".*") ? { startsWith: query.event.slice(0, -1) } : query.event;
  const rows = await repo.listDeliveries(services.prisma, { distributorId: caller.distributorId, status: query.status, event, afterId, limit: query.limit });
  return { success: true as const, ...toPage(rows, query.limit, (row) => [row.id], toRecord) };
}

export async function getDelivery(services: Services, caller: Caller, id: string) {
  const row = await repo.findDelivery(services.prisma, caller.distributorId, id);
  if (!row) throw notFound(`Webhook delivery ${id}`);
  const attempts = await repo.listAttempts(services.prisma, id);
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
  const row = await repo.findDelivery(services.prisma, caller.distributorId, id);
  if (!row) throw notFound(`Webhook delivery ${id}`);
  const updated = await services.prisma.$transaction(async (tx) => {
    if (!(await repo.requeueDelivery(tx, id))) throw invalidState(`Delivery ${id} is ${row.status}; only a PARKED or FAILED delivery can be retried`);
    await enqueue(tx, "webhooks__deliver", {}, { jobKey: `webhooks__deliver:retry:${id}` });
    return repo.getDeliveryById(tx, id);
  });
  return { success: true as const, data: toRecord(updated) };
}
