import type { Tx } from "../db/client.js";
import { enqueue } from "../jobs/enqueue.js";
import { newId } from "../lib/ids.js";
import { maskPansInText } from "../lib/mask.js";
import { matchesEvent } from "./event-filter.js";

/**
 * Delivery jobs are batch jobs merged per shard: a pending job of a shard collects the deliveries of
 * every transaction that commits before a worker takes it, so a burst of events costs a few jobs, not
 * one each. Several shards keep concurrent transactions from queuing on one job row.
 */
export const DELIVERY_SHARDS = 8;

export interface RecordedEvent {
  id: string;
  distributorId: string;
  event: string;
  data: unknown;
}

/**
 * Creates one PENDING delivery per matching subscription of the event's distributor, and queues them,
 * inside the transaction that records the event: an event is fanned out exactly when it exists, once.
 * The payload's exact bytes are fixed here and signed on every attempt.
 */
export async function fanOut(tx: Tx, event: RecordedEvent): Promise<void> {
  const subscriptions = await tx.webhookSubscription.findMany({
    where: { distributorId: event.distributorId, status: "ACTIVE" },
    select: { id: true, events: true },
  });
  const matching = subscriptions.filter((s) => matchesEvent(s.events, event.event));
  if (matching.length === 0) return;
  const payload = maskPansInText(JSON.stringify({ success: true, data: event.data }));
  const now = new Date();
  const deliveries = matching.map((s) => ({
    id: newId("whd"),
    distributorId: event.distributorId,
    subscriptionId: s.id,
    eventId: event.id,
    event: event.event,
    payload,
    status: "PENDING",
    nextAttemptAt: now,
  }));
  await tx.webhookDelivery.createMany({ data: deliveries });
  const shard = Math.floor(Math.random() * DELIVERY_SHARDS);
  await enqueue(tx, "webhooks__deliver", deliveries.map((d) => ({ delivery_id: d.id })), { jobKey: `webhooks__deliver:${shard}` });
}
