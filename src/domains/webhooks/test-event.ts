import { AppError, notFound } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import type { EventData } from "../events/catalog.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { deliveriesMadeSince, insertDeliveries } from "./deliveries.repo.js";
import { recordOutcomes, targetRefused, testAnswered, type AttemptOutcome } from "./lifecycle.js";
import { listenerCertificates, trustWithListeners } from "./listener-trust.js";
import { postWebhook } from "./outbound.js";
import { checkTarget } from "./public-address.js";
import { signPayload } from "./signature.js";
import { signingSecrets } from "./signing-secrets.js";
import { findLiveSubscription, lockLiveSubscription } from "./subscriptions.repo.js";

/** Test events one subscription may be sent per minute (each also spends a request of the client's budget). */
export const TESTS_PER_MINUTE = 5;
const MINUTE_MS = 60_000;

/**
 * Sends `webhook.test` to one subscription now, through the path every delivery takes: the target check
 * right before the POST (connected to the addresses checked), the same headers and signatures (two `v1`
 * during a rotation's overlap), the same timeout and bounded read. The delivery and its attempt are recorded
 * like any other (GET /api/webhooks/v1/deliveries/{id}); it is never retried. The request waits for the
 * answer, at most what every attempt is allowed (WEBHOOK_TIMEOUT_MS, 10 s by default).
 */
export async function sendTestEvent(services: Services, caller: Caller, id: string) {
  const deliveryId = await reserveTest(services, caller, id);
  const subscription = await findLiveSubscription(services.prisma, caller.distributorId, id);
  if (!subscription) throw notFound("Webhook subscription");
  const turn = { id: deliveryId, subscription_id: id, attempts: 0 };
  const at = new Date();
  const target = await checkTarget(subscription.url, { allowPrivate: services.config.webhooks.allowPrivateTargets, resolve: services.resolveHost });
  let outcome: AttemptOutcome;
  if (!target.ok) outcome = targetRefused(turn, at, target.reason);
  else {
    const body = Buffer.from(testPayload(id));
    // Sandbox only: the certificates of `webhooks:listen` receivers running on this machine (as attempts.ts).
    const listeners = services.config.env === "sandbox" ? await listenerCertificates(services.config.dataDir) : [];
    const result = await postWebhook({
      url: target.url,
      addresses: target.addresses,
      body,
      headers: {
        "X-MF-Event": "webhook.test",
        "X-MF-Delivery": deliveryId,
        "X-MF-Signature": signPayload(body, signingSecrets(services.cipher, subscription, at), Math.floor(at.getTime() / 1000)),
      },
      ca: listeners.length > 0 ? await trustWithListeners(listeners) : undefined,
      timeoutMs: services.config.webhooks.attemptTimeoutMs,
    });
    const attempt = { at, statusCode: result.statusCode, error: result.error, latencyMs: result.latencyMs, responseBody: result.responseBody };
    outcome = testAnswered(turn, attempt, result.ok);
  }
  await recordOutcomes(services.prisma, [outcome]);
  const attempt = outcome.attempt!;
  return {
    success: true as const,
    data: { delivery_id: deliveryId, delivered: outcome.status === "DELIVERED", status_code: attempt.statusCode, latency_ms: attempt.latencyMs, error: outcome.lastError },
  };
}

/** The body of a test delivery: the envelope every delivery has, with the test's tiny data. */
function testPayload(subscriptionId: string): string {
  const data: EventData<"webhook.test"> = { subscription_id: subscriptionId, message: "A test event, sent on request; it describes no change." };
  return JSON.stringify({ success: true, data });
}

/**
 * Counts the subscription's tests of the last minute under its row lock and, within the limit, creates the
 * test's delivery (PENDING, never due: only this request sends it). 404 for a subscription the caller does
 * not have (or deleted); 429 RATE_LIMITED with Retry-After beyond TESTS_PER_MINUTE.
 */
async function reserveTest(services: Services, caller: Caller, id: string): Promise<string> {
  return services.prisma.$transaction(async (tx) => {
    if (!(await lockLiveSubscription(tx, caller.distributorId, id))) throw notFound("Webhook subscription");
    const now = Date.now();
    const recent = await deliveriesMadeSince(tx, { distributorId: caller.distributorId, subscriptionId: id, event: "webhook.test", since: new Date(now - MINUTE_MS) });
    if (recent.length >= TESTS_PER_MINUTE) {
      const seconds = String(Math.max(1, Math.ceil((recent[0]!.getTime() + MINUTE_MS - now) / 1000)));
      throw new AppError("RATE_LIMITED", `At most ${TESTS_PER_MINUTE} test events per subscription per minute; retry after ${seconds} s`, {
        headers: { "Retry-After": seconds },
      });
    }
    const deliveryId = newId("whd");
    await insertDeliveries(tx, [
      { id: deliveryId, distributorId: caller.distributorId, subscriptionId: id, eventId: newId("evt"), event: "webhook.test", payload: testPayload(id), nextAttemptAt: null },
    ]);
    return deliveryId;
  });
}
