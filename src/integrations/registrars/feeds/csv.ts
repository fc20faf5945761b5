import { StringDecoder } from "node:string_decoder";

/**
 * A small streaming CSV reader (RFC 4180 quoting) for the registrars' reverse feeds.
 *
 * It reads the stream a chunk at a time, cut into lines, so memory stays flat however large the file is. Records are keyed by
 * header name, trimmed and lower-cased. Quoted fields may contain commas, doubled quotes and line breaks (a line
 * break inside a quoted field comes back as "\n"). Blank lines are skipped. A row whose field count differs from
 * the header's is reported as a `mismatch` item, never thrown, so one bad row does not stop the file.
 */

export type CsvItem =
  | { kind: "header"; line: number; columns: string[] }
  | { kind: "record"; line: number; record: Record<string, string> }
  | { kind: "mismatch"; line: number; reason: string };

/** The header itself is unusable (duplicate column names), so no record could be keyed. */
export class CsvHeaderError extends Error {
  override readonly name = "CsvHeaderError";
}

export interface CsvOptions {
  /**
   * How many physical lines one quoted field may span before the record is given up as an unterminated quote.
   * Bounds memory against a stray quote swallowing the rest of the file; the lines after the bad record's first
   * line are then read again as records of their own.
   */
  maxLinesPerRecord?: number;
}

const DEFAULT_MAX_LINES_PER_RECORD = 50;

export async function* readCsv(source: AsyncIterable<string | Buffer>, options: CsvOptions = {}): AsyncGenerator<CsvItem> {
  for await (const batch of readCsvBatches(source, options)) yield* batch;
}

/** The same items, a chunk's worth at a time: one await per chunk instead of one per row, for the importers. */
export async function* readCsvBatches(
  source: AsyncIterable<string | Buffer>,
  options: CsvOptions = {},
): AsyncGenerator<CsvItem[]> {
  for await (const batch of readCsvRowBatches(source, options)) {
    yield batch.map((item) => (item.kind === "row" ? { kind: "record", line: item.line, record: toRecord(item.columns, item.fields) } : item));
  }
}

/**
 * A record as its fields in header order, with the header's columns (the same array for every row): what the
 * feed importers read, without building an object keyed by name per row.
 */
export type CsvRow = { kind: "row"; line: number; columns: string[]; fields: string[] };
export type CsvRowItem = Exclude<CsvItem, { kind: "record" }> | CsvRow;

/** The items with records as CsvRow, a chunk's worth at a time: one await per chunk instead of one per row. */
export async function* readCsvRowBatches(
  source: AsyncIterable<string | Buffer>,
  options: CsvOptions = {},
): AsyncGenerator<CsvRowItem[]> {
  const splitter = new RecordSplitter(options.maxLinesPerRecord ?? DEFAULT_MAX_LINES_PER_RECORD);
  const items = new Items();
  for await (const chunk of source) {
    const batch = items.of(splitter.push(chunk));
    if (batch.length > 0) yield batch;
  }
  const rest = items.of(splitter.end());
  if (rest.length > 0) yield rest;
}

/** Turns raw records into items: the first record is the header. */
class Items {
  private columns: string[] | undefined;

  of(raws: Array<RawRecord | RawProblem>): CsvRowItem[] {
    return raws.map((raw) => this.item(raw));
  }

  private item(raw: RawRecord | RawProblem): CsvRowItem {
    if ("reason" in raw) return { kind: "mismatch", line: raw.line, reason: raw.reason };
    if (this.columns === undefined) {
      this.columns = headerColumns(raw.fields);
      return { kind: "header", line: raw.line, columns: this.columns };
    }
    return toRow(this.columns, raw);
  }
}

function headerColumns(fields: string[]): string[] {
  const columns = fields.map((field) => field.trim().toLowerCase());
  const duplicates = columns.filter((name, index) => name !== "" && columns.indexOf(name) !== index);
  if (duplicates.length > 0) {
    throw new CsvHeaderError(`duplicate column names in the header: ${[...new Set(duplicates)].join(", ")}`);
  }
  return columns;
}

function toRow(columns: string[], raw: RawRecord): CsvRowItem {
  const { fields, line } = raw;
  // Exports often end every data row with a comma the header lacks: extra fields that are all empty are harmless.
  const extrasEmpty = fields.length === columns.length || fields.slice(columns.length).every((field) => field.trim() === "");
  if (fields.length < columns.length || !extrasEmpty) {
    return { kind: "mismatch", line, reason: `expected ${columns.length} fields, found ${fields.length}` };
  }
  return { kind: "row", line, columns, fields };
}

function toRecord(columns: string[], fields: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < columns.length; index++) {
    const name = columns[index]!;
    if (name !== "") record[name] = fields[index] ?? "";
  }
  return record;
}

interface Line {
  number: number;
  text: string;
}

type RawRecord = { line: number; fields: string[] };
type RawProblem = { line: number; reason: string };

/**
 * Cuts chunks into physical lines (LF or CRLF, the UTF-8 byte order mark dropped) and groups them into records,
 * joining the lines of a quoted field that spans line breaks.
 */
class RecordSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";
  private lineNumber = 0;
  private atStart = true;
  /** The lines of a record whose quoted field is still open. */
  private open: Line[] = [];

  constructor(private readonly maxLines: number) {}

  push(chunk: string | Buffer): Array<RawRecord | RawProblem> {
    this.pending += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    this.dropBom();
    const out: Array<RawRecord | RawProblem> = [];
    let start = 0;
    let end = this.pending.indexOf("\n");
    while (end !== -1) {
      // The common case (no quoted field left open, a line without quotes) without a Line object per line.
      const crlf = end > start && this.pending.charCodeAt(end - 1) === 13;
      const text = this.pending.slice(start, crlf ? end - 1 : end);
      if (this.open.length === 0 && !text.includes('"')) {
        this.lineNumber++;
        if (text.trim() !== "") out.push({ line: this.lineNumber, fields: text.split(",") });
      } else this.take({ number: ++this.lineNumber, text }, out);
      start = end + 1;
      end = this.pending.indexOf("\n", start);
    }
    this.pending = this.pending.slice(start);
    return out;
  }

  end(): Array<RawRecord | RawProblem> {
    this.pending += this.decoder.end();
    this.dropBom();
    const out: Array<RawRecord | RawProblem> = [];
    if (this.pending.length > 0) this.take(this.line(this.pending), out);
    this.pending = "";
    while (this.open.length > 0) this.giveUp(out);
    return out;
  }

  private dropBom(): void {
    if (!this.atStart || this.pending.length === 0) return;
    if (this.pending.charCodeAt(0) === 0xfeff) this.pending = this.pending.slice(1);
    this.atStart = false;
  }

  private line(text: string): Line {
    return { number: ++this.lineNumber, text: text.endsWith("\r") ? text.slice(0, -1) : text };
  }

  private take(line: Line, out: Array<RawRecord | RawProblem>): void {
    if (this.open.length === 0 && line.text.trim() === "") return;
    this.open.push(line);
    const text = this.open.length === 1 ? line.text : this.open.map((part) => part.text).join("\n");
    const fields = parseFields(text);
    if (fields !== undefined) {
      out.push({ line: this.open[0]!.number, fields });
      this.open = [];
    } else if (this.open.length >= this.maxLines) {
      this.giveUp(out);
    }
  }

  /** Reports the open record as unterminated and reads its later lines again as records of their own. */
  private giveUp(out: Array<RawRecord | RawProblem>): void {
    const [first, ...rest] = this.open;
    this.open = [];
    out.push({ line: first!.number, reason: "unterminated quoted field" });
    for (const line of rest) this.take(line, out);
  }
}

/** The fields of one record, or undefined while a quoted field is still open at the end of the text. */
export function parseFields(text: string): string[] | undefined {
  if (!text.includes('"')) return text.split(",");
  const fields: string[] = [];
  let pos = 0;
  for (;;) {
    const quote = quotedFieldStart(text, pos);
    let value = "";
    if (quote !== -1) {
      const closed = readQuoted(text, quote + 1);
      if (closed === undefined) return undefined;
      value = closed.value;
      pos = closed.next;
    }
    // Up to the next comma; after a closing quote anything there is kept as literal text.
    const comma = text.indexOf(",", pos);
    fields.push(value + text.slice(pos, comma === -1 ? text.length : comma));
    if (comma === -1) return fields;
    pos = comma + 1;
  }
}

/** A quote opens a quoted field only at its start (spaces before it dropped); elsewhere it is a literal character. */
function quotedFieldStart(text: string, pos: number): number {
  let i = pos;
  while (text[i] === " ") i++;
  return text[i] === '"' ? i : -1;
}

function readQuoted(text: string, from: number): { value: string; next: number } | undefined {
  let value = "";
  let i = from;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return undefined;
    value += text.slice(i, quote);
    if (text[quote + 1] !== '"') return { value, next: quote + 1 };
    value += '"';
    i = quote + 2;
  }
}
