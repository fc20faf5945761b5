import type { OrderPlacement } from "../../../integrations/exchange/port.js";
import { enqueue } from "../../shared/jobs/enqueue.js";
import type { TaskContext, TaskHandler } from "../../shared/jobs/task.js";
import { applyPlacement, markDispatchFailed } from "../lifecycle.js";
import { ordersWithoutDispatchJob, undispatchedOrders } from "../orders-list.repo.js";
import { addJobs } from "../../../platform/jobs/jobs.repo.js";
import { DISPATCH_ATTEMPTS, dispatchJobOf } from "../orders.service.js";

/** A dispatch job locked longer than this is not running any more (a dispatch takes seconds). */
const STUCK_AFTER_MINUTES = 5;
const BATCH = 500;

interface Candidate {
  id: string;
  /** No dispatch job at all, its attempts used up, or locked for longer than STUCK_AFTER_MINUTES. */
  job: "none" | "exhausted" | "stuck";
}

/**
 * The safety net for PENDING orders with no exchange number whose dispatch is not under way (part of the
 * periodic status sync; dead workers' jobs are released by the worker itself, see worker-liveness.ts):
 * a dispatch job deleted, its last attempt killed (graphile-worker counts the attempt when it takes the
 * job, so it never runs again), or a job stuck in a live but hung worker. The exchange is asked for our
 * reference: what it has is applied (once: every move is conditional). What it never received is
 * dispatched again when no job exists, or FAILED when the attempts are used up; a stuck job is left to
 * its worker. Orders whose dispatch waits for a retry or runs now are not touched.
 */
export async function recoverUndispatchedOrders({ services, log }: Pick<TaskContext, "services" | "log">): Promise<number> {
  let afterId = "";
  let moved = 0;
  for (;;) {
    const rows = await undispatchedOrders(services.prisma, afterId, STUCK_AFTER_MINUTES, BATCH);
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    const candidates: Candidate[] = rows.flatMap((r): Candidate[] => {
      if (r.attempts === null) return [{ id: r.id, job: "none" }];
      if (r.locked) return r.stuck ? [{ id: r.id, job: "stuck" }] : [];
      return r.attempts >= r.max_attempts! ? [{ id: r.id, job: "exhausted" }] : [];
    });
    if (candidates.length === 0) continue;

    const reports = new Map((await services.exchange.orderStatus(candidates.map((c) => c.id))).map((r) => [r.orderId, r]));
    for (const candidate of candidates) {
      const report = reports.get(candidate.id);
      if (report) {
        const placement: OrderPlacement | null =
          report.status === "REJECTED"
            ? { status: "REJECTED", exchangeOrderNumber: null, remark: report.remark ?? "REJECTED" }
            : report.exchangeOrderNumber
              ? { status: report.status, exchangeOrderNumber: report.exchangeOrderNumber, remark: report.remark }
              : null;
        if (!placement) continue; // an answer without the exchange's number: the next pass asks again
        if (await applyPlacement(services.prisma, candidate.id, placement)) moved++;
        log.info({ order_id: candidate.id, exchange_status: report.status, job: candidate.job }, "applied the exchange's record of an order whose dispatch did not finish");
      } else if (candidate.job === "none") {
        await enqueue(services.prisma, "orders__dispatch", { order_id: candidate.id }, { jobKey: `orders__dispatch:${candidate.id}`, maxAttempts: DISPATCH_ATTEMPTS });
        log.info({ order_id: candidate.id }, "dispatch queued again for an order without a dispatch job");
      } else if (candidate.job === "exhausted") {
        if (await markDispatchFailed(services.prisma, candidate.id, "DISPATCH DID NOT COMPLETE; THE EXCHANGE HAS NO RECORD OF THE ORDER")) moved++;
      }
    }
  }
  return moved;
}

/** A placement's job is added milliseconds after its order commits: younger orders are left to it. */
export const LOST_AFTER_SECONDS = 5;

/**
 * Every minute, and once when a worker starts: queues the dispatch of PENDING orders that were never claimed
 * and have no dispatch job (their placement committed the order, then its process died before adding the job:
 * placeOrder). Never claimed means never sent, so no exchange is asked; a job added twice is harmless (the
 * dispatch claims the order once).
 */
export const queueLostDispatches: TaskHandler<"orders__queue_lost_dispatches"> = async (_payload, { services, log }) => {
  for (;;) {
    const ids = await ordersWithoutDispatchJob(services.prisma, LOST_AFTER_SECONDS, BATCH);
    if (ids.length === 0) return;
    await addJobs(services.prisma, ids.map(dispatchJobOf));
    log.warn({ orders: ids.length, first_order_id: ids[0] }, "dispatch queued for placed orders that had no dispatch job");
    if (ids.length < BATCH) return;
  }
};
