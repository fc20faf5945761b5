import type { DbOrTx } from "../../platform/db/client.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import type { Logger } from "../../platform/lib/logger.js";
import { listExchangeHolidays } from "./exchange-holidays.repo.js";

/**
 * The exchange's business days: Monday to Friday except its trading holidays (`exchange_holidays`,
 * loaded with `calendar:import`). A date in a year the calendar does not cover is a business day on
 * weekdays; `uncoveredYear` tells whether that is about to matter.
 */
export interface ExchangeCalendar {
  isBusinessDay(date: string): boolean;
  /** The years with at least one holiday loaded. */
  readonly years: ReadonlySet<number>;
}

export function calendarOf(holidays: readonly string[]): ExchangeCalendar {
  const closed = new Set(holidays);
  return {
    isBusinessDay: (date) => isWeekday(date) && !closed.has(date),
    years: new Set(holidays.map((d) => Number(d.slice(0, 4)))),
  };
}

export function isWeekday(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
}

/** The first year of the `days` days from `today` (inclusive) that the calendar does not cover, or null. */
export function uncoveredYear(calendar: ExchangeCalendar, today: string, days: number): number | null {
  const first = Number(today.slice(0, 4));
  const last = new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).getUTCFullYear();
  for (let year = first; year <= last; year++) if (!calendar.years.has(year)) return year;
  return null;
}

/** How long a process trusts the calendar it loaded: an import in another process is seen within this. */
export const CALENDAR_TTL_MS = 5 * 60_000;

interface Cached {
  loadedAt: number;
  calendar: Promise<ExchangeCalendar>;
}

// Per database client (each test app has its own); holidays change a few times a year.
const cache = new WeakMap<object, Cached>();

/** The calendar, loaded once per client and again after CALENDAR_TTL_MS or an import in this process. */
export function exchangeCalendar(db: DbOrTx, now: number = Date.now()): Promise<ExchangeCalendar> {
  const cached = cache.get(db);
  if (cached && now - cached.loadedAt < CALENDAR_TTL_MS) return cached.calendar;
  const calendar = listExchangeHolidays(db).then((rows) => calendarOf(rows.map((r) => r.date)));
  cache.set(db, { loadedAt: now, calendar });
  calendar.catch(() => {
    if (cache.get(db)?.calendar === calendar) cache.delete(db);
  });
  return calendar;
}

/** Drops the cached calendar of a client (after an import through it). */
export function forgetExchangeCalendar(db: DbOrTx): void {
  cache.delete(db);
}

/** How far ahead the calendar must reach before the service warns. */
export const CALENDAR_HORIZON_DAYS = 60;

/**
 * Logs a warning when the next CALENDAR_HORIZON_DAYS days reach a year with no holidays loaded (its weekdays
 * would all count as business days). The daily job calls it, so the warning repeats each day until the
 * operator imports the exchange's circular. Answers the uncovered year, or null.
 */
export async function warnIfCalendarEnds(db: DbOrTx, log: Pick<Logger, "warn">, today: string = todayInIndia()): Promise<number | null> {
  forgetExchangeCalendar(db);
  const year = uncoveredYear(await exchangeCalendar(db), today, CALENDAR_HORIZON_DAYS);
  if (year !== null) {
    log.warn(
      { uncovered_year: year, horizon_days: CALENDAR_HORIZON_DAYS },
      `The exchange holiday calendar has no holidays for ${year}, within the next ${CALENDAR_HORIZON_DAYS} days: NAV dates treat its weekdays as business days. Import the exchange's circular: npm run mf -- calendar:import FILE`,
    );
  }
  return year;
}
