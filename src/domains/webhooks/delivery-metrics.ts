import { Counter } from "prom-client";
import { metricsRegistry } from "../../platform/metrics/registry.js";
import type { AttemptOutcome } from "./lifecycle.js";

/** A delivery's turn as the metric names it: the state it went to (lifecycle.ts), PENDING being a failed attempt to retry. */
const OUTCOME_OF: Record<AttemptOutcome["status"], string> = {
  DELIVERED: "delivered",
  PENDING: "retrying",
  PARKED: "parked",
  FAILED: "failed",
};

const deliveries = new Counter({
  name: "mf_webhook_deliveries_total",
  help: "Webhook delivery turns by outcome: delivered (2xx), retrying (the attempt failed, another is due later), parked (the last attempt failed), failed (not sent: the subscription was deleted or its URL refused)",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

/** Counts a batch's outcomes once they are recorded. */
export function countDeliveryOutcomes(outcomes: readonly AttemptOutcome[]): void {
  for (const outcome of outcomes) deliveries.inc({ outcome: OUTCOME_OF[outcome.status] });
}
