import pino, { type Logger } from "pino";
import { maskLogLine } from "./mask.js";

export type { Logger };

/** Field names whose values never reach a log line. */
const SECRET_PATHS = [
  "authorization", "headers.authorization", "req.headers.authorization",
  "client_secret", "*.client_secret", "access_token", "*.access_token", "secret", "*.secret",
  "token", "*.token", "password", "*.password", "pan", "*.pan",
];

/**
 * JSON-lines logger. Secrets are removed by field name; then, over the finished line (messages,
 * nested fields, error texts, request paths), anything PAN-shaped is masked and order link ids are
 * cut to their first 8 characters (see mask.ts for the exact rules).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_PATHS, censor: "[redacted]" },
      hooks: { streamWrite: maskLogLine },
    },
    destination,
  );
  madeHere.add(logger);
  return logger;
}

/** Loggers made by createLogger: their options (above) are the ones accessLineWriter writes lines for. */
const madeHere = new WeakSet<Logger>();

/** What the access line of one request says. */
export type AccessLineWriter = (requestId: string, method: string, path: string, status: number, durationMs: number) => void;

/**
 * The access line of each request (info, `msg: "request"`): `{"level":30,"time":...,"request_id":...,
 * "method":...,"path":...,"status":...,"duration_ms":...,"msg":"request"}`, byte for byte what
 * `logger.info({request_id, method, path, status, duration_ms}, "request")` writes (no bindings, no field
 * redaction: the line has only these fields), PANs and link ids masked. For a logger of createLogger the
 * line is written by hand to the logger's destination, skipping pino's per-call work (about a tenth of a
 * small request's CPU); the masking of the line then applies to the three text values, the only parts of
 * it that can hold a PAN or a link id (in the line each is a JSON string between quotes, which is where
 * maskLogLine could match). Any other logger gets a pino child.
 */
export function accessLineWriter(logger: Logger): AccessLineWriter {
  // Stryker disable next-line ArrayDeclaration: a child's redact paths replace its parent's, and a path naming none of the line's five fields redacts nothing, as no path does
  const child = logger.child({}, { redact: { paths: [] } });
  if (!madeHere.has(logger)) {
    return (requestId, method, path, status, durationMs) =>
      child.info({ request_id: requestId, method, path, status, duration_ms: durationMs }, "request");
  }
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
  // Stryker disable next-line EqualityOperator: at i === length charCodeAt is NaN, neither a control character nor a quote or backslash
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
  // Stryker disable next-line EqualityOperator: at i === text.length charCodeAt is NaN, neither a digit nor `_`
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

/** The logging methods request and job code uses. */
export type Log = Pick<Logger, "fatal" | "error" | "warn" | "info" | "debug" | "trace">;

/**
 * A logger with bindings (request id, job id) that builds its pino child only when first used:
 * creating a child costs more than a small request's own work, and most requests log nothing but
 * their access line.
 */
class LazyChild implements Log {
  private child: Logger | undefined;

  constructor(private readonly parent: Logger, private readonly bindings: Record<string, unknown>) {}

  private get logger(): Logger {
    return (this.child ??= this.parent.child(this.bindings));
  }

  fatal(...args: Parameters<Logger["fatal"]>) {
    this.logger.fatal(...args);
  }
  error(...args: Parameters<Logger["error"]>) {
    this.logger.error(...args);
  }
  warn(...args: Parameters<Logger["warn"]>) {
    this.logger.warn(...args);
  }
  info(...args: Parameters<Logger["info"]>) {
    this.logger.info(...args);
  }
  debug(...args: Parameters<Logger["debug"]>) {
    this.logger.debug(...args);
  }
  trace(...args: Parameters<Logger["trace"]>) {
    this.logger.trace(...args);
  }
}

export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Log {
  return new LazyChild(parent, bindings);
}

/**
 * An error as a log line carries it, under the key `error` (pino's `err` serializer would treat the
 * summary as an error again): `{type, code, message}` (see errorSummary).
 */
export interface ErrorSummary {
  type?: string;
  code?: string;
  message: string;
}

/**
 * An error reduced to its class name, code (a SQLSTATE, a Node errno) and the first line of its
 * message. Never its other properties: pg-pool hangs the whole pg client (connection settings,
 * password included) on the errors it emits, and pino's error serializer would write all of it.
 */
export function errorSummary(error: unknown): ErrorSummary {
  if (!(error instanceof Error)) return { message: String(error).split("\n", 1)[0]! };
  const code = (error as { code?: unknown }).code;
  return {
    // pg's server errors are named "error": only a class of its own says something.
    ...(error.name && error.name.toLowerCase() !== "error" ? { type: error.name } : {}),
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    message: error.message.split("\n", 1)[0]!,
  };
}
