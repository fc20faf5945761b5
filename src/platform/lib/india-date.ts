/** India's offset from UTC: +05:30 all year (no daylight saving). */
export const INDIA_OFFSET_MS = 330 * 60_000;

/**
 * Today's date (YYYY-MM-DD) in India (Asia/Kolkata), where the exchange's business day runs. Every
 * "today" of the service is this one: start dates, dates of birth, allotment defaults, balance dates and
 * installment due dates. Reads the clock through `new Date()`, so tests can fix it with fake timers.
 */
export function todayInIndia(now: Date = new Date()): string {
  return new Date(now.getTime() + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}
