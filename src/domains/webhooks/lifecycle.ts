import type { Db, DbOrTx } from "../../platform/db/client.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { maskFreeText, maskPansInText } from "../../platform/lib/mask.js";
import { applyOutcomes, insertAttempts, requeueDeliveries, requeueDelivery, type ClaimedDelivery } from "./deliveries.repo.js";
import { markDeleted } from "./subscriptions.repo.js";

/**
 * A delivery's state table and every write of it after fan-out.ts creates it PENDING, due at once:
 *   PENDING -> DELIVERED         the receiver answered 2xx
 *   PENDING -> PENDING           an attempt failed: the next one is due after the configured delay
 *   PENDING -> PARKED            the MAX_ATTEMPTS-th attempt failed
 *   PENDING -> FAILED            the subscription was deleted, or its URL no longer passes the public-address check
 *   PARKED | FAILED -> PENDING   retried on request (one, or a replay of a range), attempted at once
 * A test event's delivery (test-event.ts) is created PENDING and never due, so no job claims it; its request
 * sends it once and it ends DELIVERED or FAILED (testAnswered), never retried nor replayed.
 * A subscription's one move, ACTIVE -> DELETED. No move records an event. attempts.ts makes the attempts and
 * hands their outcomes here.
 */

/** After this many failed attempts a delivery is PARKED until someone retries it. */
const MAX_ATTEMPTS = 5;

/** What an attempt did, as the attempt log keeps it. */
export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string;
}

/** A delivery's next state after its turn. */
export interface AttemptOutcome {
  id: string;
  status: "DELIVERED" | "PENDING" | "PARKED" | "FAILED";
  /** The attempt made (and recorded); null when none was. */
  attempt: AttemptRecord | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  attemptNo: number;
}

type Turn = Pick<ClaimedDelivery, "id" | "attempts">;

/** The subscription was deleted: FAILED, without an attempt. */
export function subscriptionGone(delivery: Turn): AttemptOutcome {
  return { id: delivery.id, status: "FAILED", attempt: null, lastError: "the subscription was deleted", nextAttemptAt: null, attemptNo: delivery.attempts };
}

/** The URL fails the public-address check now: FAILED, the refusal recorded as the attempt. */
export function targetRefused(delivery: Turn, at: Date, reason: string): AttemptOutcome {
  const error = `refused: ${reason}`;
  const attempt = { at, statusCode: null, error, latencyMs: 0, responseBody: "" };
  return { id: delivery.id, status: "FAILED", attempt, lastError: error, nextAttemptAt: null, attemptNo: delivery.attempts + 1 };
}

/** After a POST: DELIVERED on a 2xx answer; otherwise PARKED at the last attempt, else PENDING until the next delay. */
export function answered(delivery: Turn, attempt: AttemptRecord, ok: boolean, retryDelaysMs: readonly number[]): AttemptOutcome {
  const attemptNo = delivery.attempts + 1;
  if (ok) return { id: delivery.id, status: "DELIVERED", attempt, lastError: null, nextAttemptAt: null, attemptNo };
  const lastError = attempt.error ?? `HTTP ${attempt.statusCode}`;
  if (attemptNo >= MAX_ATTEMPTS) return { id: delivery.id, status: "PARKED", attempt, lastError, nextAttemptAt: null, attemptNo };
  const delay = retryDelaysMs[Math.min(attemptNo, retryDelaysMs.length) - 1]!;
  return { id: delivery.id, status: "PENDING", attempt, lastError, nextAttemptAt: new Date(Date.now() + delay), attemptNo };
}

/** After a test event's one POST: DELIVERED on a 2xx answer, else FAILED (a test is not retried). */
export function testAnswered(delivery: Turn, attempt: AttemptRecord, ok: boolean): AttemptOutcome {
  const lastError = ok ? null : (attempt.error ?? `HTTP ${attempt.statusCode}`);
  return { id: delivery.id, status: ok ? "DELIVERED" : "FAILED", attempt, lastError, nextAttemptAt: null, attemptNo: delivery.attempts + 1 };
}

/**
 * Records a batch's outcomes in one transaction: the attempts, each delivery's new state (`attempts` + 1, its
 * lease released), and a job for each next attempt. A receiver's answer and the errors are free text: kept with
 * PANs masked.
 */
export async function recordOutcomes(db: Db, outcomes: AttemptOutcome[]): Promise<void> {
  await db.$transaction(async (tx) => {
    await insertAttempts(
      tx,
      outcomes.flatMap((o) =>
        o.attempt
          ? [
              {
                deliveryId: o.id,
                attemptNo: o.attemptNo,
                attemptedAt: o.attempt.at,
                statusCode: o.attempt.statusCode,
                error: maskFreeText(o.attempt.error),
                latencyMs: o.attempt.latencyMs,
                // PostgreSQL text cannot hold NUL; a receiver may send any bytes.
                responseBody: maskPansInText(o.attempt.responseBody.replaceAll("\u0000", "")),
              },
            ]
          : [],
      ),
    );
    await applyOutcomes(
      tx,
      outcomes.map((o) => ({
        id: o.id,
        status: o.status,
        attempts: o.attemptNo,
        attempted: o.attempt !== null,
        statusCode: o.attempt?.statusCode ?? null,
        lastError: maskFreeText(o.lastError),
        nextAttemptAt: o.nextAttemptAt,
      })),
    );
    for (const retry of outcomes.filter((o) => o.status === "PENDING")) {
      await enqueue(tx, "webhooks__deliver", {}, { jobKey: `webhooks__deliver:retry:${retry.id}`, runAt: retry.nextAttemptAt! });
    }
  });
}

/** PARKED or FAILED -> PENDING, with the job that attempts it at once; false when it was in neither state. */
export async function requeueForRetry(tx: DbOrTx, id: string): Promise<boolean> {
  if (!(await requeueDelivery(tx, id))) return false;
  await enqueue(tx, "webhooks__deliver", {}, { jobKey: `webhooks__deliver:retry:${id}` });
  return true;
}

/** PARKED or FAILED -> PENDING for each of `ids` (a replay), with one job that attempts them at once; answers how many moved. */
export async function requeueForReplay(tx: DbOrTx, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const moved = await requeueDeliveries(tx, ids);
  await enqueue(tx, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:replay" });
  return moved;
}

/** ACTIVE -> DELETED: no new deliveries; its PENDING ones end FAILED at their turn (subscriptionGone). False when the distributor has no such active subscription. */
export async function unsubscribe(db: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  return markDeleted(db, distributorId, id);
}
