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
