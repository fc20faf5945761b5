import { invalidState, notFound } from "../../platform/lib/errors.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./deliveries.repo.js";
import { requeueForRetry } from "./lifecycle.js";
import { toDeliveryDetailView, toDeliveryView } from "./views.js";
import type { DeliveryStatus } from "./webhook.states.js";

export async function listDeliveries(
  services: Services,
  caller: Caller,
  query: { status?: DeliveryStatus; event?: string; limit: number; cursor?: string },
) {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const event = query.event?.endsWith(".*") ? { startsWith: query.event.slice(0, -1) } : query.event;
  const rows = await repo.listDeliveries(services.prisma, { distributorId: caller.distributorId, status: query.status, event, afterId, limit: query.limit });
  return { success: true as const, ...toPage(rows, query.limit, (row) => [row.id], toDeliveryView) };
}

export async function getDelivery(services: Services, caller: Caller, id: string) {
  const row = await repo.findDelivery(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Webhook delivery");
  const attempts = await repo.listAttempts(services.prisma, id);
  return { success: true as const, data: toDeliveryDetailView(row, attempts) };
}

/** PARKED or FAILED -> PENDING, attempted at once (if that attempt fails, it parks again). */
export async function retryDelivery(services: Services, caller: Caller, id: string) {
  const row = await repo.findDelivery(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Webhook delivery");
  const updated = await services.prisma.$transaction(async (tx) => {
    if (!(await requeueForRetry(tx, id))) throw invalidState(`Delivery ${id} is ${row.status}; only a PARKED or FAILED delivery can be retried`);
    return repo.getDeliveryById(tx, id);
  });
  return { success: true as const, data: toDeliveryView(updated) };
}
