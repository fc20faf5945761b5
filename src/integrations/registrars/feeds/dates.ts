/**
 * Dates in the registrars' feeds come in several styles (master-codes.md, Registrar feeds):
 * `01-Jan-2026`, `1/16/2026` (month first), `20260116` and ISO `2026-01-16`. A trailing time of day
 * (`1/16/2026 12:00:00 AM`, `2026-01-16 00:00:00`), which spreadsheet exports add, is ignored.
 */

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

const TIME_OF_DAY = /[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[AP]M)?$/i;

const STYLES: ReadonlyArray<{ pattern: RegExp; parts: (match: RegExpExecArray) => [string, string, string] }> = [
  { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  { pattern: /^(\d{4})(\d{2})(\d{2})$/, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, parts: (m) => [m[3]!, m[1]!, m[2]!] },
  {
    pattern: /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/,
    parts: (m) => [m[3]!, String(MONTHS[m[2]!.toLowerCase()] ?? 0), m[1]!],
  },
];

/** The date as `YYYY-MM-DD`, or undefined when the text is in none of the styles or is not a calendar date. */
export function parseFeedDate(text: string): string | undefined {
  // A feed file repeats a few report dates (in one or two styles) on every row: remember the answers (bounded).
  let date = parsedDates.get(text);
  if (date === undefined && !parsedDates.has(text)) {
    date = parse(text);
    if (parsedDates.size >= 1_000) parsedDates.clear();
    parsedDates.set(text, date);
  }
  return date;
}

const parsedDates = new Map<string, string | undefined>();

function parse(text: string): string | undefined {
  const value = text.trim().replace(TIME_OF_DAY, "");
  for (const { pattern, parts } of STYLES) {
    const match = pattern.exec(value);
    if (match) return calendarDate(...parts(match));
  }
  return undefined;
}

function calendarDate(yearText: string, monthText: string, dayText: string): string | undefined {
  const [year, month, day] = [Number(yearText), Number(monthText), Number(dayText)];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${yearText.padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [4, 6, 9, 11].includes(month) ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}
