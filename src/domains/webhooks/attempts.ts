import { performance } from "node:perf_hooks";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { Services } from "../shared/services.js";
import { claimDueDeliveries, type ClaimedDelivery, type ClaimLimits } from "./claims.repo.js";
import { countDeliveryOutcomes } from "./delivery-metrics.js";
import { answered, recordOutcomes, subscriptionDisabled, subscriptionGone, targetRefused, type AttemptOutcome } from "./lifecycle.js";
import { postWebhook } from "./outbound.js";
import { traceHttpPost } from "../../platform/tracing/client-span.js";
import { listenerCertificates, trustWithListeners } from "./listener-trust.js";
import { checkTarget, type TargetCheck } from "./public-address.js";
import { signPayload } from "./signature.js";
import { signingSecrets } from "./signing-secrets.js";
import { heldTargets } from "./subscriptions.repo.js";

/** How a delivery job claims and sends; the lease is computed from the rest (leaseMsFor). */
export interface DeliveryTuning {
  /** Deliveries one claim takes; a job claims again until nothing is due or its time is up. */
  batch: number;
  /** Requests in flight at once per job, so one burst does not open hundreds of connections to a receiver. */
  parallel: number;
  /** Deliveries of one distributor, and of one subscription, in flight across all jobs (claims.repo.ts). */
  perDistributor: number;
  perSubscription: number;
  /** One attempt's whole exchange (WEBHOOK_TIMEOUT_MS). */
  attemptTimeoutMs: number;
  /** Only for tests: a lease shorter than the batch needs (and a shorter recording allowance), to show that no delivery is sent after its lease. */
  leaseMs?: number;
  recordAllowanceMs?: number;
}

export const DEFAULT_TUNING = { batch: 200, parallel: 32, perDistributor: 400, perSubscription: 200 } as const;

/** The public-address checks (one DNS answer per subscription) made before a batch's first attempt. */
const CHECKS_ALLOWANCE_MS = 10_000;
/** Time kept at the end of a lease to record the batch's outcomes before another job may claim them. */
const RECORD_ALLOWANCE_MS = 10_000;

/**
 * A lease that outlasts its batch: the checks, then ceil(batch / parallel) attempts one after another on
 * each lane, each at most `attemptTimeoutMs`, then the recording. 200 deliveries, 32 lanes and 10 s
 * attempts: 10 + 7 x 10 + 10 = 90 s.
 */
export function leaseMsFor(tuning: Pick<DeliveryTuning, "batch" | "parallel" | "attemptTimeoutMs">): number {
  return CHECKS_ALLOWANCE_MS + Math.ceil(tuning.batch / tuning.parallel) * tuning.attemptTimeoutMs + RECORD_ALLOWANCE_MS;
}

/** How long one job keeps claiming, so a steady stream of events cannot hold a worker (or its shutdown). */
const JOB_SECONDS = 20;

/**
 * Attempts every due delivery, a claimed batch at a time (claims.repo.ts: fair across distributors, capped
 * in flight), until a claim finds nothing: each is signed and POSTed to its subscription's URL after the
 * URL passes the public-address check again; then every outcome of the batch is recorded in one
 * transaction (lifecycle.ts). Returns the number of deliveries attempted.
 */
export async function attemptDueDeliveries(services: Services, tuning: DeliveryTuning = { ...DEFAULT_TUNING, attemptTimeoutMs: services.config.webhooks.attemptTimeoutMs }): Promise<number> {
  const deadline = Date.now() + JOB_SECONDS * 1000;
  const limits: ClaimLimits = { ...tuning, leaseMs: tuning.leaseMs ?? leaseMsFor(tuning) };
  let total = 0;
  for (;;) {
    // Measured before the claim: the lease the database grants ends after leaseEnd, whatever the clocks say.
    const leaseEnd = performance.now() + limits.leaseMs;
    const claimed = await claimDueDeliveries(services.prisma, limits);
    // Nothing claimable: what is due is held by other jobs, which claim again when their batch ends.
    // A claim cut short by the in-flight caps, or deliveries released unsent, still leave work: claim again.
    if (claimed.length === 0) return total;
    total += await attemptBatch(services, claimed, tuning, leaseEnd);
    if (Date.now() > deadline) {
      // More is due: a fresh job takes over, and this worker slot is free again.
      await enqueue(services.prisma, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:continue" });
      return total;
    }
  }
}

/** A subscription as a batch uses it: its signing secrets, and its URL checked just before the batch's attempts; or DISABLED. */
type Target = { secrets: string[]; check: TargetCheck } | "DISABLED";

/**
 * Attempts a claimed batch and records it. A delivery is sent only while its attempt can end, and its
 * outcome be recorded, inside the lease; the rest are released unsent for the next claim, so a lease that
 * ran out can never lead to a second send. Answers how many were attempted.
 */
async function attemptBatch(services: Services, claimed: ClaimedDelivery[], tuning: DeliveryTuning, leaseEnd: number): Promise<number> {
  const rows = await heldTargets(services.prisma, [...new Set(claimed.map((d) => d.subscription_id))]);
  // One public-address check (and DNS answer) per subscription and batch, not per delivery.
  const options = { allowPrivate: services.config.webhooks.allowPrivateTargets, resolve: services.resolveHost };
  const targets = new Map<string, Target>(
    await Promise.all(
      rows.map(async (s): Promise<readonly [string, Target]> =>
        s.status === "DISABLED" ? [s.id, "DISABLED"] : [s.id, { secrets: signingSecrets(services.cipher, s), check: await checkTarget(s.url, options) }],
      ),
    ),
  );
  // Sandbox only: the certificates of `webhooks:listen` receivers running on this machine.
  const listeners = services.config.env === "sandbox" ? await listenerCertificates(services.config.dataDir) : [];
  const ca = listeners.length > 0 ? await trustWithListeners(listeners) : undefined;
  const outcomes: AttemptOutcome[] = [];
  const unsent: Array<{ id: string; leaseUntil: Date }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(tuning.parallel, claimed.length) }, async () => {
      while (next < claimed.length) {
        const delivery = claimed[next++]!;
        if (performance.now() + tuning.attemptTimeoutMs + (tuning.recordAllowanceMs ?? RECORD_ALLOWANCE_MS) > leaseEnd) unsent.push({ id: delivery.id, leaseUntil: delivery.lease_until });
        else outcomes.push(await attempt(services, delivery, targets.get(delivery.subscription_id), tuning.attemptTimeoutMs, ca));
      }
    }),
  );
  await recordOutcomes(services.prisma, outcomes, unsent);
  countDeliveryOutcomes(outcomes);
  return outcomes.length;
}

async function attempt(services: Services, delivery: ClaimedDelivery, subscription: Target | undefined, timeoutMs: number, ca: string[] | undefined): Promise<AttemptOutcome> {
  if (!subscription) return subscriptionGone(delivery);
  if (subscription === "DISABLED") return subscriptionDisabled(delivery);
  const at = new Date();
  const target = subscription.check;
  if (!target.ok) return targetRefused(delivery, at, target.reason);
  const body = Buffer.from(delivery.payload);
  const result = await traceHttpPost("webhook", { url: target.url, traceparent: delivery.traceparent, attributes: { "mf.webhook.delivery_id": delivery.id } }, () => postWebhook({
    url: target.url,
    addresses: target.addresses,
    body,
    headers: {
      "X-MF-Event": delivery.event,
      "X-MF-Delivery": delivery.id,
      "X-MF-Signature": signPayload(body, subscription.secrets, Math.floor(at.getTime() / 1000)),
    },
    ca,
    timeoutMs,
  }));
  const recorded = { at, statusCode: result.statusCode, error: result.error, latencyMs: result.latencyMs, responseBody: result.responseBody };
  return answered(delivery, recorded, result.ok, services.config.webhooks.retryDelaysMs);
}
