import type { Db, DbOrTx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { parkUnheldPending } from "./deliveries.repo.js";
import { failingSince, markDisabled, markEnabled, updateHealthClocks } from "./subscriptions.repo.js";

/**
 * Endpoint health. Each subscription has a clock, `failing_since`: the time of the first failed attempt
 * (no 2xx answer: an error status, a timeout, a refused connection, a URL refused by the address check)
 * after its last successful one, or after its creation or last enable. Any successful attempt stops it
 * (NULL). When the clock has run for HEALTH_DAYS, the sweep (every minute) moves the subscription
 * ACTIVE -> DISABLED: no deliveries are created for it, its PENDING ones are PARKED, and
 * `webhook.subscription_disabled` goes to the distributor's other ACTIVE subscriptions (whatever events
 * they list). `POST .../enable` moves it back, its clock reset.
 */
export const HEALTH_DAYS = 3;
/** Subscriptions one sweep disables at most (the next sweep takes the rest). */
const DISABLE_PER_SWEEP = 100;
export const DISABLED_REASON = "the subscription is disabled: enable it, then retry";

/** A batch's attempts moving its subscriptions' clocks, in the transaction that records them. */
export async function trackHealth(tx: DbOrTx, outcomes: Array<{ subscriptionId: string; status: string; attempt: { at: Date } | null }>): Promise<void> {
  const healthy = new Set(outcomes.filter((o) => o.status === "DELIVERED").map((o) => o.subscriptionId));
  const firstFailure = new Map<string, Date>();
  for (const o of outcomes) {
    if (!o.attempt || o.status === "DELIVERED" || healthy.has(o.subscriptionId)) continue;
    const seen = firstFailure.get(o.subscriptionId);
    if (!seen || o.attempt.at < seen) firstFailure.set(o.subscriptionId, o.attempt.at);
  }
  await updateHealthClocks(tx, [...healthy], [...firstFailure].map(([id, at]) => ({ id, at })));
}

/** Disables every subscription whose clock has run HEALTH_DAYS, each in its own transaction; answers their ids. */
export async function disableUnhealthy(db: Db, now = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - HEALTH_DAYS * 86_400_000);
  const disabled: string[] = [];
  for (const { id } of await failingSince(db, before, DISABLE_PER_SWEEP)) {
    const done = await db.$transaction(async (tx) => {
      const row = await markDisabled(tx, id, before);
      if (!row) return false;
      await parkUnheldPending(tx, id, DISABLED_REASON);
      await recordEvent(tx, {
        distributorId: row.distributorId,
        resourceType: "webhook",
        resourceId: row.id,
        event: "webhook.subscription_disabled",
        data: {
          subscription_id: row.id,
          url: row.url,
          status: "DISABLED",
          failing_since: row.failingSince!.toISOString(),
          disabled_at: row.disabledAt!.toISOString(),
        },
      });
      return true;
    });
    if (done) disabled.push(id);
  }
  return disabled;
}

/** DISABLED -> ACTIVE, its clock reset; false when it was not DISABLED. */
export async function enable(db: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  return markEnabled(db, distributorId, id);
}
