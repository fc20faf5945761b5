import type { CronItem } from "graphile-worker";
import { indiaCronMatcher } from "../../../platform/lib/india-cron.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { defaultReconciliationDate, reconcileDate } from "../reconciliations.service.js";

/**
 * `reconciliations__run`: reconciles `date` (default: the exchange business day before today, India) with the
 * exchange's reports. A failure reading the exchange fails the job (graphile-worker retries it; the run shows FAILED
 * meanwhile).
 */
export const reconcileJob: TaskHandler<"reconciliations__run"> = async (payload, { services, log }) => {
  const date = payload.date ?? (await defaultReconciliationDate(services.prisma));
  const summary = await reconcileDate(services, date);
  log.info({ ...summary }, "reconciliation with the exchange done");
};

/**
 * Daily at 21:30 India time, after the exchange's evening allotment statement; graphile-worker evaluates
 * crontabs in UTC, so the time is read in Asia/Kolkata (india-cron.ts). A run missed within 12 h is still made.
 */
export const RECONCILIATION_CRON_ITEM: CronItem = {
  task: "reconciliations__run",
  identifier: "reconciliations__run",
  options: { backfillPeriod: 12 * 3_600_000, queueName: "reconciliations", maxAttempts: 5 },
  match: indiaCronMatcher("30 21 * * *"),
};
