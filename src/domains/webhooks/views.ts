import { narrowTo } from "../../platform/lib/closed-set.js";
import { SUBSCRIPTION_STATUSES } from "./webhook.states.js";
import type { AttemptRow, DeliveryRow } from "./deliveries.repo.js";

/** A subscription as its resources show it (never its secret, which only its creation answers with), with its health. */
export function toSubscriptionView(row: { id: string; url: string; events: string[]; status: string; failingSince: Date | null; disabledAt: Date | null; createdAt: Date }) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: narrowTo(SUBSCRIPTION_STATUSES, row.status, "webhook_subscriptions.status"),
    failing_since: row.failingSince?.toISOString() ?? null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A delivery as the list and the retry show it; the next attempt's time only while one is due. */
export function toDeliveryView(row: DeliveryRow) {
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

/** A delivery with its exact payload and its attempt log. */
export function toDeliveryDetailView(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    ...toDeliveryView(row),
    payload: row.payload,
    attempt_log: attempts.map((a) => ({
      attempt: a.attemptNo,
      attempted_at: a.attemptedAt.toISOString(),
      status_code: a.statusCode,
      error: a.error,
      latency_ms: a.latencyMs,
      response_body: a.responseBody,
    })),
  };
}
