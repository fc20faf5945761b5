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
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_PATHS, censor: "[redacted]" },
      hooks: { streamWrite: maskLogLine },
    },
    destination,
  );
}

/** What the access line of one request says. */
export type AccessLineWriter = (requestId: string, method: string, path: string, status: number, durationMs: number) => void;

/**
 * The access line of each request (info, `msg: "request"`): `{"level":30,"time":...,"request_id":...,
 * "method":...,"path":...,"status":...,"duration_ms":...,"msg":"request"}`, from a pino child without
 * field redaction (the line has only these fields), PANs and link ids masked by the logger's hook.
 */
export function accessLineWriter(logger: Logger): AccessLineWriter {
  // Stryker disable next-line ArrayDeclaration: a child's redact paths replace its parent's, and a path naming none of the line's five fields redacts nothing, as no path does
  const child = logger.child({}, { redact: { paths: [] } });
  return (requestId, method, path, status, durationMs) =>
    child.info({ request_id: requestId, method, path, status, duration_ms: durationMs }, "request");
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
