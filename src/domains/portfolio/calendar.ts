/**
 * Calendar arithmetic on India business dates (YYYY-MM-DD), exact and without time zones: each date is read as
 * a UTC midnight only to count days.
 */

const DAY_MS = 86_400_000;

function utc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Days since 1970-01-01: daysBetween(a, b) is dayNumber(b) - dayNumber(a), for reading each of many dates once. */
export function dayNumber(date: string): number {
  return Math.round(utc(date) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return new Date(utc(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The same day of the month `months` later; when that month has no such day (29 February in a common year, the
 * 31st of a 30-day month), the first day of the month after: the anniversary that does not exist has passed
 * only when the month has ended.
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, d));
  if (target.getUTCDate() !== d) return new Date(Date.UTC(y, m + months, 1)).toISOString().slice(0, 10);
  return target.toISOString().slice(0, 10);
}

/**
 * The same day of the month `months` later, or that month's last day when it has no such day (29 February ->
 * 28 February): the end of a period of months as the tax rules count it ("more than 12 months").
 */
export function addMonthsClamped(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m + months, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}
