/**
 * The access line as src/platform/lib/logger.ts wrote it by hand through pino's symbols until the
 * "Library copies" measurement of docs/benchmarks.md replaced it by pino's own `info`; kept here only as
 * the other side of `npm run bench:library-copies`. Not used by the service. The benchmark checks, before
 * timing, that it writes the same lines as pino.
 */
import pino, { type Logger } from "pino";
import { maskLogLine } from "../../src/platform/lib/mask.js";

type AccessLineWriter = (requestId: string, method: string, path: string, status: number, durationMs: number) => void;

/**
 * A logger (of createLogger) for createApp whose access line is the hand-written one: accessLineWriter
 * asks it for `child({}, { redact: { paths: [] } })` and calls that child's `info(fields, "request")`,
 * which here goes to the copy; every other child and call is the logger's own.
 */
export function withHandWrittenAccessLine(logger: Logger): Logger {
  const write = handWrittenAccessLine(logger);
  const accessChild = {
    info(fields: { request_id: string; method: string; path: string; status: number; duration_ms: number }) {
      write(fields.request_id, fields.method, fields.path, fields.status, fields.duration_ms);
    },
  };
  const facade = Object.create(logger) as Logger;
  facade.child = ((bindings: pino.Bindings, options?: pino.ChildLoggerOptions) =>
    options?.redact !== undefined && Object.keys(bindings).length === 0 ? accessChild : logger.child(bindings, options)) as Logger["child"];
  return facade;
}

/**
 * As it was: the access line (info, `msg: "request"`), byte for byte what `logger.info({request_id, method,
 * path, status, duration_ms}, "request")` writes for a logger of createLogger, written by hand to the logger's
 * destination, skipping pino's per-call work; the masking applies to the three text values only, the parts of
 * the line that can hold a PAN or a link id.
 */
function handWrittenAccessLine(logger: Logger): AccessLineWriter {
  const child = logger.child({}, { redact: { paths: [] } });
  const stream = (child as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as pino.DestinationStream & Record<string | symbol, unknown>;
  const timeSliceIndex = (child as unknown as Record<symbol, number>)[pino.symbols.timeSliceIndexSym];
  return (requestId, method, path, status, durationMs) => {
    if (!child.isLevelEnabled("info")) return;
    const time = `,"time":"${new Date(Date.now()).toISOString()}"`;
    const line =
      `{"level":30${time},"request_id":${masked(jsonString(requestId))},"method":${masked(jsonString(method))}` +
      `,"path":${masked(jsonString(path))},"status":${jsonNumber(status)},"duration_ms":${jsonNumber(durationMs)},"msg":"request"}\n`;
    // A multistream reads the line's level (and these) off the stream, as pino's own write sets them.
    if (stream[pino.symbols.needsMetadataGsym] === true) {
      stream.lastLevel = 30;
      stream.lastObj = { request_id: requestId, method, path, status, duration_ms: durationMs };
      stream.lastMsg = "request";
      stream.lastTime = time.slice(timeSliceIndex);
      stream.lastLogger = child;
    }
    stream.write(line);
  };
}

/** A string as pino writes it (its `asString`): quotes and backslashes escaped, JSON.stringify for control characters or over 100 characters. */
function jsonString(text: string): string {
  const length = text.length;
  if (length > 100) return JSON.stringify(text);
  let escaped = "";
  let last = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32) return JSON.stringify(text);
    if (code === 34 || code === 92) {
      escaped += `${text.slice(last, i)}\\`;
      last = i;
    }
  }
  return `"${escaped}${text.slice(last)}"`;
}

/**
 * maskLogLine of a value, skipped (its regular expressions cost about half a microsecond a value) when
 * the text has no run of 5 letters, 4 digits and a letter (the shape of every PAN) and no `nk_` in any
 * case (in every link id).
 */
function masked(text: string): string {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++digits === 4 && isLetter(text.charCodeAt(i + 1)) && isLetter(text.charCodeAt(i - 4)) && isLetter(text.charCodeAt(i - 5)) &&
        isLetter(text.charCodeAt(i - 6)) && isLetter(text.charCodeAt(i - 7)) && isLetter(text.charCodeAt(i - 8))) {
        return maskLogLine(text);
      }
      continue;
    }
    digits = 0;
    if (code === 95 && (text.charCodeAt(i - 1) | 32) === 107 && (text.charCodeAt(i - 2) | 32) === 110) return maskLogLine(text);
  }
  return text;
}

/** An ASCII letter (NaN, past either end of the text, is none). */
function isLetter(code: number): boolean {
  const lower = code | 32;
  return lower >= 97 && lower <= 122;
}

/** A number as pino writes it: null when not finite. */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : "null";
}

