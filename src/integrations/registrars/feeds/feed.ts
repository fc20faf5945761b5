import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { PAN_PATTERN } from "../../../platform/lib/formats.js";
import { CsvHeaderError, readCsvRowBatches } from "./csv.js";

export interface FeedBatch {
  registrar: Registrar;
  /** The positions file (WBR22 or MFSD203). */
  file: FeedFile;
  /** CAMS only: the WBR9 investor file read with it. */
  companion?: FeedFile;
  /** SHA-256 of the batch's content (for CAMS, over both files). */
  sha256: string;
  /** TRANSACTIONS for a transaction feed (WBR2, MFSD201; `file` alone); absent for positions. */
  kind?: FeedFileKind;
}

/** holding_feed_files.kind (the database checks the same list). */
export const FEED_FILE_KINDS = ["POSITIONS", "TRANSACTIONS"] as const;
export type FeedFileKind = (typeof FEED_FILE_KINDS)[number];

/** What both registrar importers produce: one folio's position in one scheme, as the registrar reported it. */

/** The registrars, as holding_positions, holding_snapshots and holding_feed_files.registrar (the database checks the same list). */
export const REGISTRARS = ["CAMS", "KFINTECH"] as const;
export type Registrar = (typeof REGISTRARS)[number];
/** holding_positions.holding_nature (the database checks the same list). */
export const HOLDING_NATURE_VALUES = ["SINGLE", "JOINT", "ANYONE_OR_SURVIVOR", "OTHER"] as const;
export type HoldingNature = (typeof HOLDING_NATURE_VALUES)[number];

export interface FeedPosition {
  registrar: Registrar;
  /** The distributor code the row is reported under, normalised to `ARN-<digits>` when it has that shape. */
  arn: string;
  amc_code: string;
  amc_name: string | null;
  folio_no: string;
  scheme_code: string;
  isin: string | null;
  scheme_name: string;
  /** Exact decimal text, 3 decimals. */
  units: string;
  /** Exact decimal text, 4 decimals. */
  nav: string | null;
  nav_date: string | null;
  /** Exact decimal text, 2 decimals. */
  market_value: string | null;
  balance_date: string;
  holding_nature: HoldingNature;
  /** The first holder's PAN, upper case (not checked here: see `servable`). */
  pan: string | null;
  investor_name: string | null;
}

/** A row that was skipped (or a record that could not be used), and why. `line` is the record's first line. */
export interface FeedProblem {
  file: string;
  line: number;
  reason: string;
}

export type ProblemItem = { kind: "problem"; problem: FeedProblem };
export type FeedItem = { kind: "position"; position: FeedPosition } | ProblemItem;

export interface FeedParseResult {
  positions: FeedPosition[];
  problems: FeedProblem[];
}

/** The whole file is unusable (no header, missing or duplicate columns): nothing from it may be imported. */
export class FeedFileError extends Error {
  override readonly name = "FeedFileError";
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** A feed file: its name (as reported in problems) and a way to open it as a stream. */
export interface FeedFile {
  name: string;
  open(): AsyncIterable<string | Buffer>;
}

export function feedFile(path: string, name = basename(path)): FeedFile {
  // 16 KB reads (about 150 rows): an import waiting for PostgreSQL holds the rest of its chunk's rows, which the
  // other registrar's import would otherwise push into the old generation (64 KB chunks: peaks of 500+ MB RSS).
  return { name, open: () => createReadStream(path, { highWaterMark: 16 * 1024 }) };
}

/** Only single-holder folios under the holder's own PAN are served (design, Holdings). */
export function servable(position: FeedPosition): boolean {
  return position.holding_nature === "SINGLE" && position.pan !== null && PAN_PATTERN.test(position.pan);
}

/** Collects a feed into memory: for tests and small files; the importer streams the items instead. */
export async function collectFeed(items: AsyncIterable<FeedItem>): Promise<FeedParseResult> {
  const result: FeedParseResult = { positions: [], problems: [] };
  for await (const item of items) {
    if (item.kind === "position") result.positions.push(item.position);
    else result.problems.push(item.problem);
  }
  return result;
}

// ---- Decimals, kept as text so no binary float ever rounds a unit or a rupee.

// Digits, or digits grouped by thousands (1,234,567) or the Indian way (12,34,567).
const DECIMAL = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)?(?:\.(\d*))?$/;

/**
 * `text` as a fixed decimal with `scale` decimals: thousands separators dropped (`1,23,456.5` too), exact when
 * the text has at most `scale` decimals, otherwise rounded half-up (away from zero). Undefined when not a plain
 * decimal (exponents, stray characters, empty).
 */
export function toFixedDecimal(text: string, scale: number): string | undefined {
  const plain = plainFixedDecimal(text, scale);
  if (plain !== undefined) return plain;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign = "", integerText = "", fractionText = ""] = match;
  if (integerText === "" && fractionText === "") return undefined;

  const digits = integerText.replaceAll(",", "") || "0";
  const kept = (digits + fractionText.padEnd(scale, "0").slice(0, scale)).replace(/^0+(?=\d)/, "");
  const roundUp = (fractionText[scale] ?? "0") >= "5";
  const scaled = roundUp ? incrementDigits(kept) : kept;

  const padded = scaled.padStart(scale + 1, "0");
  const integer = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale);
  const body = scale > 0 ? `${integer}.${fraction}` : integer;
  return sign === "-" && /[1-9]/.test(scaled) ? `-${body}` : body;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * The common case (digits, no sign, no separators, no leading zero), by a character scan rather than a regular
 * expression (no match array: a feed has millions of these): `text` when it has
 * `scale` decimals, padded with zeros when fewer; undefined when it is not plain or has more decimals.
 */
function plainFixedDecimal(text: string, scale: number): string | undefined {
  const length = text.length;
  const first = text.charCodeAt(0);
  let i = 1;
  if (first >= 49 && first <= 57) while (i < length && isDigit(text.charCodeAt(i))) i++;
  else if (first !== 48) return undefined;
  if (i === length) return scale > 0 ? `${text}.${"0".repeat(scale)}` : text;
  if (text.charCodeAt(i) !== 46) return undefined;
  const dot = i;
  for (i = dot + 1; i < length; i++) if (!isDigit(text.charCodeAt(i))) return undefined;
  const decimals = length - dot - 1;
  if (decimals > scale) return undefined;
  if (scale === 0) return text.slice(0, dot);
  return decimals === scale ? text : text + "0".repeat(scale - decimals);
}

function incrementDigits(digits: string): string {
  const chars = digits.split("");
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== "9") {
      chars[i] = String(Number(chars[i]) + 1);
      return chars.join("");
    }
    chars[i] = "0";
  }
  return `1${chars.join("")}`;
}

// ---- Field normalisers shared by the importers.

const HOLDING_NATURES = new Map<string, HoldingNature>([
  ["SI", "SINGLE"], ["S", "SINGLE"], ["SINGLE", "SINGLE"],
  ["JO", "JOINT"], ["J", "JOINT"], ["JOINT", "JOINT"],
  ["AS", "ANYONE_OR_SURVIVOR"], ["ES", "ANYONE_OR_SURVIVOR"], ["A", "ANYONE_OR_SURVIVOR"], ["E", "ANYONE_OR_SURVIVOR"],
  ["ANYONE OR SURVIVOR", "ANYONE_OR_SURVIVOR"], ["EITHER OR SURVIVOR", "ANYONE_OR_SURVIVOR"],
  ["ANYONE SURVIVOR", "ANYONE_OR_SURVIVOR"], ["EITHER SURVIVOR", "ANYONE_OR_SURVIVOR"],
]);

/**
 * CAMS `holding_nature` and KFintech `MOH` codes and words (`SI`, `Single`, `JO`, `Anyone or Survivor`, `E`...).
 * Anything else, blank included, is OTHER, which is never served.
 */
export function holdingNature(text: string): HoldingNature {
  const exact = HOLDING_NATURES.get(text) ?? HOLDING_NATURES.get(text.toUpperCase());
  if (exact !== undefined) return exact;
  return HOLDING_NATURES.get(text.toUpperCase().replace(/[^A-Z]+/g, " ").trim()) ?? "OTHER";
}

/** `ARN-12345`, `arn 12345`, `ARN12345` and `12345` are the same distributor code; anything else is kept as is. */
export function normaliseArn(text: string): string {
  // A feed carries a handful of distributor codes over millions of rows: remember the answers (bounded).
  let arn = normalisedArns.get(text);
  if (arn === undefined) {
    const value = text.trim().toUpperCase();
    const match = /^(?:ARN[\s-]*)?(\d+)$/.exec(value);
    arn = match ? `ARN-${match[1]}` : value;
    if (normalisedArns.size >= 10_000) normalisedArns.clear();
    normalisedArns.set(text, arn);
  }
  return arn;
}

const normalisedArns = new Map<string, string>();

export function optionalText(text: string | undefined): string | null {
  const value = (text ?? "").trim();
  return value === "" ? null : value;
}

export function optionalPan(text: string | undefined): string | null {
  return optionalText(text)?.toUpperCase() ?? null;
}

const ISIN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/** An ISIN that is not ISIN-shaped is dropped (null) rather than failing the row: the scheme code identifies it. */
export function optionalIsin(text: string | undefined): string | null {
  // A feed repeats a few thousand ISINs over millions of rows: remember the answers (bounded).
  const key = text ?? "";
  let isin = checkedIsins.get(key);
  if (isin === undefined) {
    const value = optionalText(key)?.toUpperCase();
    isin = value !== undefined && ISIN.test(value) ? value : null;
    if (checkedIsins.size >= 10_000) checkedIsins.clear();
    checkedIsins.set(key, isin);
  }
  return isin;
}

const checkedIsins = new Map<string, string | null>();

// ---- Reading a feed file's rows by header name.

/** Thrown by a row reader for a malformed row: becomes a FeedProblem and the row is skipped. */
export class RowRejected extends Error {
  override readonly name = "RowRejected";
}

export interface FeedRow {
  line: number;
  /** The value of a lower-case column name; an absent optional column reads as "". */
  get(column: string): string;
}

/** A row read through its header's column positions (no object keyed by name per row). */
class CsvFeedRow implements FeedRow {
  constructor(
    public line: number,
    private readonly columns: ReadonlyMap<string, number>,
    public fields: string[],
  ) {}

  get(column: string): string {
    const index = this.columns.get(column);
    return index === undefined ? "" : (this.fields[index] ?? "");
  }
}

/** Each named column's position (an unnamed column is never read). */
function columnPositions(columns: string[]): Map<string, number> {
  const positions = new Map<string, number>();
  columns.forEach((name, index) => {
    if (name !== "" && !positions.has(name)) positions.set(name, index);
  });
  return positions;
}

/**
 * Reads a CSV feed file by header name, one `read` per row: its position is yielded, a RowRejected it throws
 * becomes a problem for the row (the file goes on), undefined yields nothing. Rejects the whole file
 * (FeedFileError) when it has no header, duplicate column names or lacks one of `required` (lower case);
 * unknown extra columns are ignored.
 */
export async function* readFeedFile(
  file: FeedFile,
  required: readonly string[],
  read: (row: FeedRow) => FeedPosition | undefined,
): AsyncGenerator<FeedItem> {
  for await (const items of readFeedFileBatches(file, required, read)) yield* items;
}

/** The same items, a chunk's worth at a time (one await per chunk, not per row: what the importer reads). */
export function readFeedFileBatches(
  file: FeedFile,
  required: readonly string[],
  read: (row: FeedRow) => FeedPosition | undefined,
): AsyncGenerator<FeedItem[]> {
  return readRecordBatches(file, required, read, (position) => ({ kind: "position", position }));
}

/**
 * Any feed's records by header name, a chunk's worth at a time: `read` turns a row into a value (or throws
 * RowRejected, which becomes a problem), `wrap` makes it an item. The positions feeds and the transaction feeds
 * (transactions-feed.ts) share it.
 */
export async function* readRecordBatches<T, I>(
  file: FeedFile,
  required: readonly string[],
  read: (row: FeedRow) => T | undefined,
  wrap: (value: T) => I,
): AsyncGenerator<Array<I | ProblemItem>> {
  let positions: Map<string, number> | undefined;
  // One row object per file, pointed at each record in turn (the readers keep no reference to it).
  let row: CsvFeedRow | undefined;
  try {
    for await (const batch of readCsvRowBatches(file.open())) {
      const items: Array<I | ProblemItem> = [];
      for (const item of batch) {
        if (item.kind === "header") {
          checkColumns(file.name, item.columns, required);
          positions = columnPositions(item.columns);
          row = new CsvFeedRow(0, positions, []);
          continue;
        }
        let result: I | ProblemItem | undefined;
        if (item.kind === "row") {
          row!.line = item.line;
          row!.fields = item.fields;
          result = readRecord(file.name, row!, read, wrap);
        } else result = problem(file.name, item);
        if (result !== undefined) items.push(result);
      }
      if (items.length > 0) yield items;
    }
  } catch (error) {
    if (error instanceof CsvHeaderError) throw new FeedFileError(file.name, error.message);
    throw error;
  }
  if (positions === undefined) throw new FeedFileError(file.name, "empty file: no header row");
}

function checkColumns(file: string, columns: string[], required: readonly string[]): void {
  const missing = required.filter((column) => !columns.includes(column));
  if (missing.length > 0) throw new FeedFileError(file, `missing mandatory columns: ${missing.join(", ")}`);
}

function problem(file: string, { line, reason }: { line: number; reason: string }): ProblemItem {
  return { kind: "problem", problem: { file, line, reason } };
}

function readRecord<T, I>(file: string, row: CsvFeedRow, read: (row: FeedRow) => T | undefined, wrap: (value: T) => I): I | ProblemItem | undefined {
  try {
    const value = read(row);
    return value === undefined ? undefined : wrap(value);
  } catch (error) {
    if (error instanceof RowRejected) return problem(file, { line: row.line, reason: error.message });
    throw error;
  }
}

export function requiredText(row: FeedRow, column: string): string {
  const value = row.get(column).trim();
  if (value === "") throw new RowRejected(`${column} is empty`);
  return value;
}

export function requiredDate(row: FeedRow, column: string, parse: (text: string) => string | undefined): string {
  const text = row.get(column).trim();
  const date = parse(text);
  if (date === undefined) throw new RowRejected(`${column} is not a date: "${text}"`);
  return date;
}

/** A non-negative decimal; blank is null unless `required`. */
export function decimalField(row: FeedRow, column: string, scale: number, required: true): string;
export function decimalField(row: FeedRow, column: string, scale: number, required?: false): string | null;
export function decimalField(row: FeedRow, column: string, scale: number, required = false): string | null {
  const text = row.get(column).trim();
  if (text === "") {
    if (required) throw new RowRejected(`${column} is empty`);
    return null;
  }
  const value = toFixedDecimal(text, scale);
  if (value === undefined) throw new RowRejected(`${column} is not a number: "${text}"`);
  if (value.startsWith("-")) throw new RowRejected(`${column} is negative: "${text}"`);
  return value;
}
