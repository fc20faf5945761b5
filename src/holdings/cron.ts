import { parseCronItem, type CronItem } from "graphile-worker";

/**
 * `HOLDINGS_REFRESH_CRON` is a five-field cron expression in Asia/Kolkata time (default `0 6 * * *`, 06:00 IST).
 * graphile-worker evaluates crontabs in UTC, so the item's matcher converts each UTC minute it is asked about to
 * IST (UTC+05:30; India has no daylight saving) and applies the configured expression there: any expression works,
 * day boundaries included. An invalid expression throws at worker start-up.
 */
export const IST_OFFSET_MINUTES = 330;

export function holdingsRefreshCronItem(expression: string): CronItem {
  const ist = parseCronItem({ task: "holdings__refresh", match: expression, identifier: "holdings__refresh" }).match;
  return {
    task: "holdings__refresh",
    identifier: "holdings__refresh",
    // Missed runs within 6 h (a restart at 06:00) are still made; one job at a time.
    options: { backfillPeriod: 6 * 3_600_000, queueName: "holdings", maxAttempts: 3 },
    match: (utc) => {
      const now = new Date();
      // The digest has no year: the current UTC year, or the previous one for a December digest in January.
      const year = now.getUTCFullYear() - (utc.month === 12 && now.getUTCMonth() === 0 ? 1 : 0);
      const t = new Date(Date.UTC(year, utc.month - 1, utc.date, utc.hour, utc.min) + IST_OFFSET_MINUTES * 60_000);
      return ist({ min: t.getUTCMinutes(), hour: t.getUTCHours(), date: t.getUTCDate(), month: t.getUTCMonth() + 1, dow: t.getUTCDay() });
    },
  };
}
