import { parseCronItem, type CronMatcher } from "graphile-worker";
import { INDIA_OFFSET_MS } from "./india-date.js";

/**
 * A five-field cron expression read in Asia/Kolkata time, as a graphile-worker matcher. graphile-worker
 * evaluates crontabs in UTC, so the matcher converts each UTC minute it is asked about to IST (UTC+05:30;
 * India has no daylight saving) and applies the expression there: any expression works, day boundaries
 * included. An invalid expression throws (graphile-worker's message).
 */
export function indiaCronMatcher(expression: string): CronMatcher {
  const ist = parseCronItem({ task: "india_cron", match: expression }).match;
  return (utc) => {
    const now = new Date();
    // The digest has no year: the current UTC year, or the previous one for a December digest in January.
    const year = now.getUTCFullYear() - (utc.month === 12 && now.getUTCMonth() === 0 ? 1 : 0);
    const t = new Date(Date.UTC(year, utc.month - 1, utc.date, utc.hour, utc.min) + INDIA_OFFSET_MS);
    return ist({ min: t.getUTCMinutes(), hour: t.getUTCHours(), date: t.getUTCDate(), month: t.getUTCMonth() + 1, dow: t.getUTCDay() });
  };
}
