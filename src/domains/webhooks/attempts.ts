import { enqueue } from "../shared/jobs/enqueue.js";
import type { Services } from "../shared/services.js";
import { claimDueDeliveries, type ClaimedDelivery } from "./deliveries.repo.js";
import { answered, recordOutcomes, subscriptionGone, targetRefused, type AttemptOutcome } from "./lifecycle.js";
import { postWebhook } from "./outbound.js";
import { listenerCertificates, trustWithListeners } from "./listener-trust.js";
import { checkTarget, type TargetCheck } from "./public-address.js";
import { signPayload } from "./signature.js";
import { signingSecrets } from "./signing-secrets.js";
import { activeTargets } from "./subscriptions.repo.js";

/** How long a claimed delivery is reserved for the job that claimed it (then a sweep may retry it). */
const LEASE_SECONDS = 60;
/** Requests in flight at once per job, so one burst does not open hundreds of connections to a receiver. */
const PARALLEL_SENDS = 32;

/** Deliveries one claim takes; a job claims again until nothing is due or its time is up. */
const CLAIM_BATCH = 200;
/** How long one job keeps claiming, so a steady stream of events cannot hold a worker (or its shutdown). */
const JOB_SECONDS = 20;

/**
 * Attempts every due delivery, a claimed batch at a time: each is signed and POSTed to its
 * subscription's URL after the URL passes the public-address check again; then every outcome of the
 * batch is recorded in one transaction (lifecycle.ts). Returns the number of deliveries attempted.
 */
export async function attemptDueDeliveries(services: Services): Promise<number> {
  const deadline = Date.now() + JOB_SECONDS * 1000;
  let total = 0;
  for (;;) {
    const claimed = await claimDueDeliveries(services.prisma, CLAIM_BATCH, LEASE_SECONDS);
    total += claimed.length;
    if (claimed.length > 0) await attemptBatch(services, claimed);
    if (claimed.length < CLAIM_BATCH) return total;
    if (Date.now() > deadline) {
      // More is due: a fresh job takes over, and this worker slot is free again.
      await enqueue(services.prisma, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:continue" });
      return total;
    }
  }
}

/** An active subscription as a batch uses it: its signing secrets, and its URL checked just before the batch's attempts. */
interface Target {
  secrets: string[];
  check: TargetCheck;
}

async function attemptBatch(services: Services, claimed: ClaimedDelivery[]): Promise<void> {
  const rows = await activeTargets(services.prisma, [...new Set(claimed.map((d) => d.subscription_id))]);
  // One public-address check (and DNS answer) per subscription and batch, not per delivery.
  const options = { allowPrivate: services.config.webhooks.allowPrivateTargets, resolve: services.resolveHost };
  const targets = new Map<string, Target>(
    await Promise.all(
      rows.map(async (s) => [s.id, { secrets: signingSecrets(services.cipher, s), check: await checkTarget(s.url, options) }] as const),
    ),
  );
  // Sandbox only: the certificates of `webhooks:listen` receivers running on this machine.
  const listeners = services.config.env === "sandbox" ? await listenerCertificates(services.config.dataDir) : [];
  const ca = listeners.length > 0 ? await trustWithListeners(listeners) : undefined;
  const outcomes: AttemptOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_SENDS, claimed.length) }, async () => {
      while (next < claimed.length) {
        const delivery = claimed[next++]!;
        outcomes.push(await attempt(services, delivery, targets.get(delivery.subscription_id), ca));
      }
    }),
  );
  await recordOutcomes(services.prisma, outcomes);
}

async function attempt(services: Services, delivery: ClaimedDelivery, subscription: Target | undefined, ca: string[] | undefined): Promise<AttemptOutcome> {
  if (!subscription) return subscriptionGone(delivery);
  const at = new Date();
  const target = subscription.check;
  if (!target.ok) return targetRefused(delivery, at, target.reason);
  const body = Buffer.from(delivery.payload);
  const result = await postWebhook({
    url: target.url,
    addresses: target.addresses,
    body,
    headers: {
      "X-MF-Event": delivery.event,
      "X-MF-Delivery": delivery.id,
      "X-MF-Signature": signPayload(body, subscription.secrets, Math.floor(at.getTime() / 1000)),
    },
    ca,
  });
  const recorded = { at, statusCode: result.statusCode, error: result.error, latencyMs: result.latencyMs, responseBody: result.responseBody };
  return answered(delivery, recorded, result.ok, services.config.webhooks.retryDelaysMs);
}
