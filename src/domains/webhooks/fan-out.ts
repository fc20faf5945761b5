import type { Tx } from "../../platform/db/client.js";
import type { RecordedEvent } from "../events/sinks.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPansInText } from "../../platform/lib/mask.js";
import { currentTraceparent } from "../../platform/tracing/trace-context.js";
import { insertDeliveries } from "./deliveries.repo.js";
import { matchesEvent } from "./event-filter.js";
import { subscriptionsForFanOut, type FanOutSubscription } from "./subscriptions.repo.js";

/**
 * A delivery job drains every due delivery, so a transaction needs one job however many events it
 * records: its first fan-out adds a job under a shard key (the transaction id picks the shard), later
 * ones in the same transaction add nothing. A pending job of a shard stands for every transaction that
 * commits before a worker takes it, so a burst of events costs a few jobs, not one each.
 */
export const DELIVERY_SHARDS = 8;
const queuedIn = new WeakSet<Tx>();
type Subscriptions = FanOutSubscription[];
/** A transaction's view of each distributor's subscriptions, read once (its later events reuse it). */
const seenIn = new WeakMap<Tx, Map<string, Subscriptions>>();

async function subscriptionsOf(tx: Tx, distributorId: string): Promise<Subscriptions> {
  let byDistributor = seenIn.get(tx);
  if (!byDistributor) seenIn.set(tx, (byDistributor = new Map()));
  let subscriptions = byDistributor.get(distributorId);
  if (!subscriptions) {
    subscriptions = await subscriptionsForFanOut(tx, distributorId, DELIVERY_SHARDS);
    byDistributor.set(distributorId, subscriptions);
  }
  return subscriptions;
}

/**
 * Creates one PENDING delivery per matching subscription of the event's distributor, and queues them,
 * inside the transaction that records the event (an event sink): an event is fanned out exactly when it
 * exists, once. The payload's exact bytes are fixed here and signed on every attempt.
 */
export async function fanOut(tx: Tx, event: RecordedEvent): Promise<void> {
  const subscriptions = await subscriptionsOf(tx, event.distributorId);
  const matching = subscriptions.filter((s) => matchesEvent(s.events, event.event));
  if (matching.length === 0) return;
  const payload = maskPansInText(JSON.stringify({ success: true, data: event.data }));
  const now = new Date();
  const traceparent = currentTraceparent();
  const deliveries = matching.map((s) => ({
    id: newId("whd"),
    distributorId: event.distributorId,
    subscriptionId: s.id,
    eventId: event.id,
    event: event.event,
    payload,
    nextAttemptAt: now,
    traceparent: traceparent ?? null,
  }));
  await insertDeliveries(tx, deliveries);
  if (!queuedIn.has(tx)) {
    await enqueue(tx, "webhooks__deliver", {}, { jobKey: `webhooks__deliver:${matching[0]!.shard}` });
    queuedIn.add(tx);
  }
}
