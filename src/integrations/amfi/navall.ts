/**
 * Streaming parser for AMFI's daily NAV file (NAVAll.txt), in both layouts:
 *
 *   OLD (before Aug 2026), 6 fields:
 *     Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Net Asset Value;Date
 *   NEW (from Aug 2026), 8 fields, plan and option split out of the name:
 *     Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Plan;Option;Net Asset Value;Date
 *
 * Lines without a ';' are section lines ("Open Ended Schemes(Debt Scheme - Banking and PSU Fund)"), AMC lines
 * ("Axis Mutual Fund") or blank (often a single space). Lines end in CRLF.
 *
 * Plan and option are reduced to small closed sets:
 *   plan:   DIRECT | REGULAR | null (not stated, or legacy plans such as "Institutional" / "Retail")
 *   option: GROWTH             growth / cumulative
 *           IDCW_PAYOUT        IDCW (ex "dividend") paid out
 *           IDCW_REINVESTMENT  IDCW reinvested
 *           IDCW               IDCW where the text names neither or both payout and reinvestment (one scheme
 *                              code then often carries both ISINs; the ISIN columns tell them apart)
 *           BONUS              bonus option
 *           null               not stated or not recognised (unclaimed-amount plans, maturity options, ...)
 * The IDCW frequency (daily, monthly, ...) is not kept in `option`; in the OLD layout it stays in scheme_name.
 *
 * Where they come from:
 *   NEW: the Plan and Option fields only. When both are empty the name carries no plan/option either
 *        ("PGIM India Liquid Fund"), and reading the name would misread "ICICI Prudential Growth Fund - Series 1".
 *   OLD: the scheme name (planFromText, optionFromText). A name without "Direct"/"Regular" gives plan null,
 *        although AMFI now lists most such legacy schemes as Regular Plan.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export type NavAllFormat = 'OLD' | 'NEW';
/** schemes.plan and schemes.option, when known (the database checks the same lists). */
export const AMFI_PLANS = ['DIRECT', 'REGULAR'] as const;
export type AmfiPlan = (typeof AMFI_PLANS)[number];
export const AMFI_OPTIONS = ['GROWTH', 'IDCW', 'IDCW_PAYOUT', 'IDCW_REINVESTMENT', 'BONUS'] as const;
export type AmfiOption = (typeof AMFI_OPTIONS)[number];

export type AmfiSchemeRecord = {
  scheme_code: string;
  /** "ISIN Div Payout/ ISIN Growth" column; null for '-' or a value that is not an ISIN. */
  isin_growth: string | null;
  /** "ISIN Div Reinvestment" column; null for '-' or a value that is not an ISIN (e.g. "Redeemed"). */
  isin_reinvestment: string | null;
  /** OLD: the full name (plan/option included). NEW: the name field, which no longer carries plan/option. */
  scheme_name: string;
  plan: AmfiPlan | null;
  option: AmfiOption | null;
  /** Decimal string as in the file (a bare trailing '.' dropped: "10." -> "10"); null for "N.A.". */
  nav: string | null;
  /** YYYY-MM-DD; null when the file has no date. */
  nav_date: string | null;
  amc_name: string;
  /** See amcCodeFromName. */
  amc_code: string;
  /** Text inside the section line's parentheses, e.g. "Debt Scheme - Banking and PSU Fund". */
  category: string;
  /** Text before the parentheses, e.g. "Open Ended Schemes", "Close Ended Schemes", "Interval Fund Schemes". */
  scheme_type: string;
};

/** A line that was not turned into a record; `line` is 1-based. */
export type SkippedLine = { line: number; reason: string };

export type NavAllParseResult = {
  format: NavAllFormat;
  records: AmfiSchemeRecord[];
  skipped: SkippedLine[];
};

export type ParseNavAllOptions = {
  /** Called once, after the header line has been recognised. */
  onFormat?: (format: NavAllFormat) => void;
  /** Called for every malformed data line; parsing carries on. */
  onSkipped?: (skipped: SkippedLine) => void;
};

export class NavAllHeaderError extends Error {
  override name = 'NavAllHeaderError';
}

/** Guards the line buffer: a real NAVAll line is a few hundred characters. */
const MAX_LINE_LENGTH = 64 * 1024;

const HEADER_COLUMNS: Record<NavAllFormat, readonly string[]> = {
  OLD: ['Scheme Code', 'ISIN Div Payout/ ISIN Growth', 'ISIN Div Reinvestment', 'Scheme Name', 'Net Asset Value', 'Date'],
  NEW: [
    'Scheme Code',
    'ISIN Div Payout/ ISIN Growth',
    'ISIN Div Reinvestment',
    'Scheme Name',
    'Plan',
    'Option',
    'Net Asset Value',
    'Date',
  ],
};

const SECTION_LINE = /^(.*\bSchemes)\s*\((.*)\)$/;
const SCHEME_CODE = /^\d+$/;
const ISIN = /^IN[A-Z0-9]{10}$/;
const NAV = /^\d+(\.\d*)?$/;
const NOT_AVAILABLE = /^N\.?A\.?$/i;
const DATE = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export async function* parseNavAll(
  input: AsyncIterable<string | Buffer> | NodeJS.ReadableStream,
  options: ParseNavAllOptions = {},
): AsyncGenerator<AmfiSchemeRecord> {
  let format: NavAllFormat | undefined;
  let section: { category: string; scheme_type: string } | undefined;
  let amc: { amc_name: string; amc_code: string } | undefined;
  let lineNumber = 0;

  for await (const rawLine of splitLines(input)) {
    lineNumber += 1;
    const line = lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine;

    if (format === undefined) {
      format = detectFormat(line);
      options.onFormat?.(format);
      continue;
    }

    const text = line.trim();
    if (text === '') continue;

    if (!text.includes(';')) {
      const sectionMatch = SECTION_LINE.exec(text);
      if (sectionMatch) {
        // The AMC carries over: AMFI omits the AMC line when a section starts with the previous section's AMC.
        section = { category: sectionMatch[2]!.trim(), scheme_type: sectionMatch[1]!.trim() };
      } else {
        amc = { amc_name: text, amc_code: amcCodeFromName(text) };
      }
      continue;
    }

    if (!section || !amc) {
      options.onSkipped?.({ line: lineNumber, reason: 'data line before a section and AMC line' });
      continue;
    }
    const parsed = parseDataLine(line, format);
    if ('error' in parsed) {
      options.onSkipped?.({ line: lineNumber, reason: parsed.error });
    } else {
      yield { ...parsed.fields, ...amc, ...section };
    }
  }

  if (format === undefined) throw new NavAllHeaderError('NAVAll input is empty: no header line');
}

/** Reads a whole NAVAll stream into memory; prefer parseNavAll when only streaming through the records. */
export async function collectNavAll(
  input: AsyncIterable<string | Buffer> | NodeJS.ReadableStream,
): Promise<NavAllParseResult> {
  let format: NavAllFormat | undefined;
  const records: AmfiSchemeRecord[] = [];
  const skipped: SkippedLine[] = [];
  const parser = parseNavAll(input, {
    onFormat: (detected) => (format = detected),
    onSkipped: (line) => skipped.push(line),
  });
  for await (const record of parser) records.push(record);
  // parseNavAll throws when no header was read, so a format is known here.
  return { format: format!, records, skipped };
}

export function parseNavAllFile(path: string): Promise<NavAllParseResult> {
  return collectNavAll(createReadStream(path));
}

/**
 * Stable short code for an AMC: the name without the words "Mutual Fund", upper-cased, every run of other
 * characters than A-Z and 0-9 replaced by one '_', no leading/trailing '_'.
 * "Aditya Birla Sun Life Mutual Fund" -> "ADITYA_BIRLA_SUN_LIFE", "IL&FS Mutual Fund (IDF)" -> "IL_FS_IDF".
 */
export function amcCodeFromName(amcName: string): string {
  const slug = (text: string) =>
    text
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  return slug(amcName.replace(/\bmutual\s+fund\b/gi, ' ')) || slug(amcName);
}

/**
 * Plan stated in free text (an OLD-layout scheme name, or a NEW-layout option field). "Direct" wins over
 * "Regular" because "Regular" also names IDCW kinds ("Direct Plan - Regular IDCW"); "Regular Savings/Income"
 * is a fund name, not a plan.
 */
export function planFromText(text: string): AmfiPlan | null {
  if (/\bdirect\b/i.test(text)) return 'DIRECT';
  if (/\bregular\b(?!\s*(savings?|income)\b)/i.test(text)) return 'REGULAR';
  return null;
}

/**
 * Option stated in free text. The last option keyword wins, since the option comes after the fund name and
 * fund names contain the same words ("Nippon India Growth Fund - IDCW", "... Dividend Yield Fund - Growth").
 * Keywords need no word boundary on the right: names run words together ("IDCWPayout", "IDCWOption").
 */
export function optionFromText(text: string): AmfiOption | null {
  const keyword = /\b(growth|cumulative|gr\b|bonus|idcw|icdw|idwc|dcw|dividend(?!\s+(yield|opportunities|leaders))|income\s+distribution)/gi;
  const last = [...text.matchAll(keyword)].at(-1)?.[1]?.toLowerCase();
  if (last === undefined) return null;
  if (last === 'growth' || last === 'cumulative' || last === 'gr') return 'GROWTH';
  if (last === 'bonus') return 'BONUS';
  return idcwKind(text);
}

function idcwKind(text: string): AmfiOption {
  const payout = /pay\s?-?out/i.test(text);
  const reinvestment = /re-?\s?invest/i.test(text);
  if (payout && !reinvestment) return 'IDCW_PAYOUT';
  if (reinvestment && !payout) return 'IDCW_REINVESTMENT';
  return 'IDCW';
}

function planFromField(planField: string, optionField: string): AmfiPlan | null {
  if (/^direct/i.test(planField)) return 'DIRECT';
  if (/^regular/i.test(planField)) return 'REGULAR';
  // A few NEW rows leave Plan empty but state it in Option ("SG 2 Regular Growth").
  return planField === '' ? planFromText(optionField) : null;
}

function detectFormat(headerLine: string): NavAllFormat {
  const columns = headerLine.split(';').map(normaliseHeaderCell);
  for (const format of ['OLD', 'NEW'] as const) {
    const expected = HEADER_COLUMNS[format].map(normaliseHeaderCell);
    if (columns.length === expected.length && columns.every((column, i) => column === expected[i])) return format;
  }
  throw new NavAllHeaderError(
    `unrecognised NAVAll header (expected the 6-column or 8-column AMFI layout): ${JSON.stringify(headerLine.slice(0, 200))}`,
  );
}

function normaliseHeaderCell(cell: string): string {
  return cell.replace(/\s+/g, '').toLowerCase();
}

type DataFields = Omit<AmfiSchemeRecord, 'amc_name' | 'amc_code' | 'category' | 'scheme_type'>;

function parseDataLine(line: string, format: NavAllFormat): { fields: DataFields } | { error: string } {
  const cells = line.split(';').map((cell) => cell.trim());
  const expectedCount = HEADER_COLUMNS[format].length;
  if (cells.length !== expectedCount) return { error: `expected ${expectedCount} fields, found ${cells.length}` };

  const [schemeCode, isinGrowth, isinReinvestment, schemeName] = cells as [string, string, string, string];
  const [navText, dateText] = cells.slice(-2) as [string, string];

  if (!SCHEME_CODE.test(schemeCode)) return { error: `invalid scheme code ${JSON.stringify(schemeCode)}` };
  if (schemeName === '') return { error: 'empty scheme name' };
  const nav = parseNav(navText);
  if (nav === undefined) return { error: `invalid NAV ${JSON.stringify(navText)}` };
  const navDate = parseNavDate(dateText);
  if (navDate === undefined) return { error: `invalid date ${JSON.stringify(dateText)}` };

  const { plan, option } =
    format === 'NEW'
      ? { plan: planFromField(cells[4]!, cells[5]!), option: optionFromText(cells[5]!) }
      : { plan: planFromText(schemeName), option: optionFromText(schemeName) };

  return {
    fields: {
      scheme_code: schemeCode,
      isin_growth: parseIsin(isinGrowth),
      isin_reinvestment: parseIsin(isinReinvestment),
      scheme_name: schemeName,
      plan,
      option,
      nav,
      nav_date: navDate,
    },
  };
}

/** '-', empty and non-ISIN placeholders ("Redeemed", a 10-character code) become null. */
function parseIsin(cell: string): string | null {
  return ISIN.test(cell) ? cell : null;
}

/** null for "N.A.", undefined when malformed. */
function parseNav(cell: string): string | null | undefined {
  if (NOT_AVAILABLE.test(cell)) return null;
  if (!NAV.test(cell)) return undefined;
  return cell.endsWith('.') ? cell.slice(0, -1) : cell;
}

/** "21-Aug-2026" -> "2026-08-21"; null for an empty or "N.A." date, undefined when malformed. */
export function parseNavDate(cell: string): string | null | undefined {
  if (cell === '' || NOT_AVAILABLE.test(cell)) return null;
  const match = DATE.exec(cell);
  if (!match) return undefined;
  const day = Number(match[1]);
  const month = MONTHS.indexOf(match[2]!.toLowerCase()) + 1;
  const year = Number(match[3]);
  if (month === 0 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Splits a chunked text stream into lines (LF or CRLF), holding only the current partial line. */
async function* splitLines(chunks: AsyncIterable<string | Buffer> | NodeJS.ReadableStream): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let lineStart = 0;
    let newline: number;
    while ((newline = pending.indexOf('\n', lineStart)) !== -1) {
      yield stripCarriageReturn(pending.slice(lineStart, newline));
      lineStart = newline + 1;
    }
    pending = pending.slice(lineStart);
    if (pending.length > MAX_LINE_LENGTH) {
      throw new Error(`NAVAll line longer than ${MAX_LINE_LENGTH} characters: not a NAVAll file?`);
    }
  }
  pending += decoder.end();
  if (pending !== '') yield stripCarriageReturn(pending);
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
