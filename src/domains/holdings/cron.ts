import type { CronItem } from "graphile-worker";
import { indiaCronMatcher } from "../../platform/lib/india-cron.js";

/**
 * The holdings refresh's crontab item: `HOLDINGS_REFRESH_CRON`, a five-field cron expression in Asia/Kolkata
 * time (default `0 6 * * *`, 06:00 IST). An invalid expression throws (the configuration refuses it at start-up).
 */
export function holdingsRefreshCronItem(expression: string): CronItem {
  return {
    task: "holdings__refresh",
    identifier: "holdings__refresh",
    // Missed runs within 6 h (a restart at 06:00) are still made; one job at a time.
    options: { backfillPeriod: 6 * 3_600_000, queueName: "holdings", maxAttempts: 3 },
    match: indiaCronMatcher(expression),
  };
}
