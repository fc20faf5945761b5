/**
 * The exchange's downloadable masters (BSE StAR MF scheme master and SIP master): pipe-separated text, one
 * header line. Columns are found by header name, normalised (lower case, letters and digits only), never by
 * position, because releases differ in case, spacing and dashes (exchange-masters.md).
 */

/** A line the importer skipped, with its 1-based line number in the file. */
export interface MasterProblem {
  line: number;
  message: string;
}

/** A file the importer refuses as a whole (its header lacks a required column, or it holds no header). */
export class MasterFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MasterFileError";
  }
}

/** A cell that cannot be read as its column's type; the line is skipped with this message. */
export class CellError extends Error {}

export const normaliseHeader = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

export interface MasterLine {
  line: number;
  /** A cell by normalised header name: trimmed text, "" when the column is absent or the cell empty. */
  cell(name: string): string;
}

/**
 * Splits a master file into its data lines. `required` are normalised header names the file must have;
 * a header lacking one refuses the file, naming what is missing. Blank lines are ignored.
 */
export function readMasterLines(text: string, what: string, required: readonly string[]): { lines: MasterLine[]; headers: string[] } {
  const rows = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const headerIndex = rows.findIndex((row) => row.trim() !== "");
  if (headerIndex < 0) throw new MasterFileError(`the ${what} is empty: it needs a header line naming its columns`);
  const headers = rows[headerIndex]!.split("|").map(normaliseHeader);
  const missing = required.filter((name) => !headers.includes(name));
  if (missing.length > 0) {
    throw new MasterFileError(`the ${what}'s header lacks ${missing.length === 1 ? "the column" : "the columns"} ${missing.map((m) => `"${m}"`).join(", ")} (names are matched ignoring case, spaces and punctuation)`);
  }
  const position = new Map<string, number>();
  headers.forEach((name, index) => {
    if (name && !position.has(name)) position.set(name, index);
  });
  const lines: MasterLine[] = [];
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const raw = rows[i]!;
    if (raw.trim() === "") continue;
    const cells = raw.split("|");
    lines.push({
      line: i + 1,
      cell: (name) => {
        const index = position.get(name);
        // Stryker disable next-line ConditionalExpression: cells[undefined] is undefined as well; the test is the type's guard
        return index === undefined ? "" : (cells[index] ?? "").trim();
      },
    });
  }
  return { lines, headers };
}

/** Y/N flags (some releases 1/0); an empty cell is N. */
export function flag(value: string, column: string): boolean {
  const v = value.toUpperCase();
  if (v === "Y" || v === "YES" || v === "1" || v === "TRUE") return true;
  if (v === "" || v === "N" || v === "NO" || v === "0" || v === "FALSE") return false;
  throw new CellError(`${column} "${value}" is not Y or N`);
}

/**
 * A non-negative decimal with at most `scale` significant decimals, as text; null for an empty cell. A zero
 * maximum or multiple means "no rule" in the exchange's files, so `zeroIsNone` maps 0 to null.
 */
export function decimal(value: string, column: string, scale: number, zeroIsNone = false): string | null {
  if (value === "") return null;
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(value.replace(/,/g, ""));
  if (!match) throw new CellError(`${column} "${value}" is not a number`);
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > scale) throw new CellError(`${column} "${value}" has more than ${scale} decimals`);
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  if (zeroIsNone && whole === "0" && fraction === "") return null;
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A whole number, or null for an empty cell. */
export function integer(value: string, column: string): number | null {
  if (value === "") return null;
  if (!/^\d{1,9}(\.0+)?$/.test(value)) throw new CellError(`${column} "${value}" is not a whole number`);
  return Number.parseInt(value, 10);
}

/** A cut-off time as HH:MM (India time): `HH:MM[:SS]`, with AM/PM, or a fraction of a day (some exports); null when empty. */
export function cutOffTime(value: string, column: string): string | null {
  if (value === "") return null;
  const fraction = /^0?\.\d+$/.exec(value);
  if (fraction) {
    // Rounded (exports store 15:00 as 0.62499999...), but never to 24:00: the last half minute is 23:59, as 23:59:40 is.
    const minutes = Math.min(Math.round(Number(value) * 24 * 60), 24 * 60 - 1);
    return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  }
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(AM|PM)?$/i.exec(value);
  if (!match) throw new CellError(`${column} "${value}" is not a time HH:MM:SS`);
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const half = match[4]?.toUpperCase();
  if (half) {
    if (hours < 1 || hours > 12) throw new CellError(`${column} "${value}" is not a time HH:MM:SS`);
    hours = (hours % 12) + (half === "PM" ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) throw new CellError(`${column} "${value}" is not a time HH:MM:SS`);
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/**
 * A date as YYYY-MM-DD, or null when empty: `DD-MM-YYYY`, `DD/MM/YYYY`, ISO `YYYY-MM-DD`, `DD-MMM-YYYY`
 * and `MMM DD YYYY` (with or without a time after it), the forms the exchange's exports use.
 */
export function masterDate(value: string, column: string): string | null {
  if (value === "") return null;
  const v = value.toUpperCase().replace(/\s+/g, " ").trim();
  let parts: [number, number, number] | null = null;
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$/.exec(v))) parts = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?: .*)?$/.exec(v))) parts = [Number(m[3]), Number(m[2]), Number(m[1])];
  else if ((m = /^(\d{1,2})[- ]([A-Z]{3})[A-Z]*[- ,]+(\d{4})(?: .*)?$/.exec(v)) && MONTHS.includes(m[2]!)) parts = [Number(m[3]), MONTHS.indexOf(m[2]!) + 1, Number(m[1])];
  else if ((m = /^([A-Z]{3})[A-Z]* (\d{1,2}),? (\d{4})(?: .*)?$/.exec(v)) && MONTHS.includes(m[1]!)) parts = [Number(m[3]), MONTHS.indexOf(m[1]!) + 1, Number(m[2])];
  if (!parts) throw new CellError(`${column} "${value}" is not a date`);
  const [year, month, day] = parts;
  const date = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  // A day or month out of range comes back from the calendar as another date (31-02 as 02-03, 13th month as January).
  if (year < 1900 || new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) !== date) {
    throw new CellError(`${column} "${value}" is not a real date`);
  }
  return date;
}
