import pino, { type Logger } from "pino";
import { maskPansInText } from "./mask.js";

export type { Logger };

/** Field names whose values never reach a log line. */
const SECRET_PATHS = [
  "authorization", "*.authorization", "headers.authorization", "req.headers.authorization",
  "client_secret", "*.client_secret", "access_token", "*.access_token", "secret", "*.secret",
  "token", "*.token", "password", "*.password", "pan", "*.pan", "*.*.pan",
];

/** JSON-lines logger. Secrets are removed by path; PAN-shaped text anywhere in a line is masked. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_PATHS, censor: "[redacted]" },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg) => (typeof arg === "string" ? maskPansInText(arg) : arg));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
      formatters: {
        log: (object) => maskDeep(object) as Record<string, unknown>,
      },
    },
    destination,
  );
}

function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskPansInText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v, depth + 1);
  return out;
}
