import type { CronItem, TaskList } from "graphile-worker";
import { purgeExpiredTokens } from "./domains/auth/jobs/purge-expired-tokens.js";
import { purgeExpiredIdempotencyKeys } from "./domains/shared/jobs/purge-idempotency-keys.js";
import { checkInvestorStatus, syncPendingInvestors } from "./domains/investors/jobs/check-status.js";
import { deriveNomination } from "./domains/investors/jobs/derive-nomination.js";
import { registerInvestor } from "./domains/investors/jobs/register.js";
import { sendInvestorChange } from "./domains/investors/jobs/send-change.js";
import { cancelOrderAtExchange } from "./domains/orders/jobs/cancel-at-exchange.js";
import { pauseOrderAtExchange } from "./domains/orders/jobs/pause-at-exchange.js";
import { createInstallments } from "./domains/orders/jobs/create-installments.js";
import { dispatchOrder } from "./domains/orders/jobs/dispatch.js";
import { syncOrdersWithExchange } from "./domains/orders/jobs/sync-exchange.js";
import { LOST_AFTER_SECONDS, queueLostDispatches } from "./domains/orders/jobs/dispatch-recovery.js";
import { initiatePayment, syncPendingPayments } from "./domains/payments/jobs/gateway.js";
import { expireLinkJob } from "./domains/order-links/jobs/expire-link.js";
import { submitToRegistrarJob } from "./domains/broker-changes/jobs/submit-to-registrar.js";
import { deliverWebhooks } from "./domains/webhooks/jobs/deliver.js";
import { sweepWebhookDeliveries } from "./domains/webhooks/jobs/sweep.js";
import { PURGE_OLD_DELIVERIES_CRON_ITEM, purgeOldDeliveries } from "./domains/webhooks/jobs/purge-old-deliveries.js";
import { cancelMandateAtExchange, checkMandateStatus, registerMandate, syncPendingMandates } from "./domains/mandates/jobs/register.js";
import type { Services } from "./domains/shared/services.js";
import type { Config } from "./env.js";
import { holdingsRefreshCronItem } from "./domains/holdings/cron.js";
import { refreshHoldingsJob } from "./domains/holdings/jobs/refresh.js";
import { exchangeMastersCronItem } from "./domains/masters/exchange-masters.dir.js";
import { importExchangeMastersJob } from "./domains/masters/jobs/import-exchange.js";
import { checkCalendarJob } from "./domains/masters/jobs/check-calendar.js";
import { RECONCILIATION_CRON_ITEM, reconcileJob } from "./domains/reconciliations/jobs/reconcile.js";
import { TASKS, type TaskName } from "./domains/shared/jobs/catalog.js";
import type { TaskHandler } from "./domains/shared/jobs/task.js";
import { traceTask } from "./platform/tracing/job-span.js";
import { meteredTask } from "./platform/metrics/job-metrics.js";

const HANDLERS: { [N in TaskName]: TaskHandler<N> } = {
  auth__purge_expired_tokens: purgeExpiredTokens,
  idempotency__purge_expired: purgeExpiredIdempotencyKeys,
  investors__register: registerInvestor,
  investors__check_status: checkInvestorStatus,
  investors__sync_pending: syncPendingInvestors,
  investors__derive_nomination: deriveNomination,
  investors__send_change: sendInvestorChange,
  mandates__register: registerMandate,
  mandates__check_status: checkMandateStatus,
  mandates__sync_pending: syncPendingMandates,
  mandates__cancel_at_exchange: cancelMandateAtExchange,
  orders__dispatch: dispatchOrder,
  orders__cancel_at_exchange: cancelOrderAtExchange,
  orders__pause_at_exchange: pauseOrderAtExchange,
  orders__sync_exchange: syncOrdersWithExchange,
  orders__queue_lost_dispatches: queueLostDispatches,
  orders__create_installments: createInstallments,
  payments__initiate: initiatePayment,
  payments__sync_pending: syncPendingPayments,
  order_links__expire: expireLinkJob,
  broker_changes__submit: submitToRegistrarJob,
  webhooks__deliver: deliverWebhooks,
  webhooks__sweep: sweepWebhookDeliveries,
  webhooks__purge_old_deliveries: purgeOldDeliveries,
  holdings__refresh: refreshHoldingsJob,
  masters__import_exchange: importExchangeMastersJob,
  masters__check_calendar: checkCalendarJob,
  reconciliations__run: reconcileJob,
};

/** Recurring jobs (graphile-worker crontab items). */
export const CRON_ITEMS: CronItem[] = [
  { task: "auth__purge_expired_tokens", match: "17 3 * * *", identifier: "auth__purge_expired_tokens" },
  { task: "idempotency__purge_expired", match: "27 3 * * *", identifier: "idempotency__purge_expired" },
  { task: "investors__sync_pending", match: "*/10 * * * *", identifier: "investors__sync_pending" },
  { task: "investors__derive_nomination", match: "*/10 * * * *", identifier: "investors__derive_nomination" },
  { task: "mandates__sync_pending", match: "*/10 * * * *", identifier: "mandates__sync_pending" },
  { task: "orders__sync_exchange", match: "*/5 * * * *", identifier: "orders__sync_exchange" },
  { task: "payments__sync_pending", match: "*/5 * * * *", identifier: "payments__sync_pending" },
  { task: "webhooks__sweep", match: "* * * * *", identifier: "webhooks__sweep" },
  { task: "orders__queue_lost_dispatches", match: "* * * * *", identifier: "orders__queue_lost_dispatches" },
  // Hourly, so an installment due today in India is created early in its day and a missed pass is caught up.
  { task: "orders__create_installments", match: "35 * * * *", identifier: "orders__create_installments" },
  // 08:15 India time.
  { task: "masters__check_calendar", match: "45 2 * * *", identifier: "masters__check_calendar" },
  RECONCILIATION_CRON_ITEM,
  PURGE_OLD_DELIVERIES_CRON_ITEM,
];

/**
 * Jobs a worker queues once when it starts, after `delayMs`: what a process killed a moment before left behind
 * (a placement's order committed without its dispatch job) is taken up at the restart, not at the next cron.
 */
export const STARTUP_JOBS: Array<{ task: TaskName; delayMs: number }> = [
  { task: "orders__queue_lost_dispatches", delayMs: (LOST_AFTER_SECONDS + 1) * 1_000 },
];

function withoutCronMarker(payload: unknown): unknown {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return payload;
  const { _cron, ...own } = payload as Record<string, unknown>;
  return own;
}

/** The crontab with the configured items (holdings: `HOLDINGS_REFRESH_CRON`, in Asia/Kolkata time). */
export function cronItems(config: Config): CronItem[] {
  return [...CRON_ITEMS, holdingsRefreshCronItem(config.holdings.refreshCron), exchangeMastersCronItem(config.exchangeMasters.cron)];
}

/** The worker's task list: each handler gets its payload parsed by the task's schema first. */
export function buildTaskList(services: Services): TaskList {
  const list: TaskList = {};
  for (const name of Object.keys(HANDLERS) as TaskName[]) {
    const handler = HANDLERS[name] as TaskHandler<TaskName>;
    list[name] = traceTask(name, async (payload, helpers) => {
      // graphile-worker's crontab adds `_cron: {ts, backfilled}` to the payloads it schedules.
      const parsed = TASKS[name].safeParse(withoutCronMarker(payload ?? {}));
      const log = services.logger.child({ task: name, job_id: helpers.job.id });
      if (!parsed.success) {
        // A payload that can never parse must not be retried 25 times.
        log.error({ issues: parsed.error.issues }, "job payload rejected by its schema; dropped");
        return;
      }
      await handler(parsed.data, { services, log, job: helpers.job });
    });
    list[name] = meteredTask(name, list[name]);
  }
  return list;
}
