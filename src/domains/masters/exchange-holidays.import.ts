import type { Db } from "../../platform/db/client.js";
import { forgetExchangeCalendar } from "./exchange-calendar.js";
import { replaceExchangeHolidayYears, type ExchangeHolidayRow } from "./exchange-holidays.repo.js";

/**
 * The exchange's holiday calendar file: one line a day, `YYYY-MM-DD,description` (the description may hold
 * commas), `#` comments and blank lines ignored. A file replaces every year it covers. One bad line refuses
 * the whole file: a calendar missing a holiday gives wrong NAV dates without anyone noticing, so nothing of
 * a file with a mistake is loaded.
 */

export interface CalendarProblem {
  line: number;
  message: string;
}

export interface CalendarImportReport {
  imported: boolean;
  /** The years the file covers (replaced when imported). */
  years: number[];
  holidays: number;
  /** Rows of those years deleted before the file's were inserted. */
  removed: number;
  problems: CalendarProblem[];
}

export function parseHolidayFile(text: string): { holidays: ExchangeHolidayRow[]; problems: CalendarProblem[] } {
  const holidays: ExchangeHolidayRow[] = [];
  const problems: CalendarProblem[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const text = raw.replace(/^\uFEFF/, "").trim();
    if (text === "" || text.startsWith("#")) return;
    const comma = text.indexOf(",");
    const [date, description] = comma < 0 ? [text, ""] : [text.slice(0, comma).trim(), text.slice(comma + 1).trim()];
    if (!isRealDate(date)) return void problems.push({ line, message: `"${date}" is not a date YYYY-MM-DD` });
    if (!description) return void problems.push({ line, message: `${date} has no description (YYYY-MM-DD,description)` });
    const earlier = seen.get(date);
    if (earlier) return void problems.push({ line, message: `${date} is already on line ${earlier}` });
    seen.set(date, line);
    holidays.push({ date, description });
  });
  if (holidays.length === 0 && problems.length === 0) problems.push({ line: 0, message: "the file lists no holiday, so it covers no year" });
  return { holidays, problems };
}

/** YYYY-MM-DD naming a day of the calendar (2026-02-30 does not): the round trip gives it back unchanged. */
function isRealDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Imports a holiday file in one transaction, or nothing when any line is bad. */
export async function importHolidayFile(db: Db, text: string): Promise<CalendarImportReport> {
  const { holidays, problems } = parseHolidayFile(text);
  const years = [...new Set(holidays.map((h) => Number(h.date.slice(0, 4))))].sort((a, b) => a - b);
  if (problems.length > 0) return { imported: false, years, holidays: holidays.length, removed: 0, problems };
  const removed = await db.$transaction((tx) => replaceExchangeHolidayYears(tx, years, holidays));
  forgetExchangeCalendar(db);
  return { imported: true, years, holidays: holidays.length, removed, problems };
}
