import { idempotent } from "../../platform/idempotency/idempotency.js";
import { invalidState, notFound, validationError } from "../../platform/lib/errors.js";
import { DIRECT_EVENTS } from "../events/catalog.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./deliveries.repo.js";
import { requeueForRetry, requeueForReplay } from "./lifecycle.js";
import { toDeliveryDetailView, toDeliveryView } from "./views.js";
import type { DeliveryStatus } from "./webhook.states.js";

/** An event filter as the repo takes it: a name, or a `<resource>.*` wildcard as a prefix. */
const eventFilter = (event: string | undefined) => (event?.endsWith(".*") ? { startsWith: event.slice(0, -1) } : event);

export async function listDeliveries(
  services: Services,
  caller: Caller,
  query: { status?: DeliveryStatus; event?: string; limit: number; cursor?: string },
) {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const event = eventFilter(query.event);
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

/** The most deliveries one replay queues; a range holding more is refused (400), to be split. */
export const REPLAY_MAX_DELIVERIES = 1000;

/**
 * Queues the caller's FAILED and PARKED deliveries created in [since, until) for an attempt now (of ACTIVE
 * subscriptions; test events excluded). Idempotent by nature: what it queued is PENDING, so a repeat while
 * they wait queues nothing new; a repeat with the same Idempotency-Key answers the first count.
 */
export async function replayDeliveries(
  services: Services,
  caller: Caller,
  input: { since: string; until: string; status?: "FAILED" | "PARKED"; event?: string },
  idempotencyKey: string | undefined,
) {
  const stored = await idempotent(
    services.prisma,
    { distributorId: caller.distributorId, scope: "POST /api/webhooks/v1/deliveries/replay", key: idempotencyKey, body: input },
    async (tx) => {
      const filter = {
        distributorId: caller.distributorId,
        statuses: input.status ? [input.status] : (["FAILED", "PARKED"] as Array<"FAILED" | "PARKED">),
        since: new Date(input.since),
        until: new Date(input.until),
        event: eventFilter(input.event),
        excludedEvents: DIRECT_EVENTS,
      };
      const ids = await repo.lockReplayable(tx, filter, REPLAY_MAX_DELIVERIES + 1);
      if (ids.length > REPLAY_MAX_DELIVERIES) {
        const message = `more than ${REPLAY_MAX_DELIVERIES} deliveries match: narrow the range (or filter by status or event) and replay it in parts`;
        throw validationError([{ path: "until", message, reason: "too_big" }]);
      }
      return { status: 200, body: { success: true as const, data: { replayed: await requeueForReplay(tx, ids) } } };
    },
  );
  return stored.body;
}
