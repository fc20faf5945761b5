import { TRPCError } from "@trpc/server";
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../lib/errors.js";
import { issuesToDetails, type ZodLikeIssue } from "../lib/zod.js";
import { errorSummary, type Log } from "../lib/logger.js";
import { maskPansInText } from "../lib/mask.js";
import { isDatabaseUnavailable } from "../db/connection-errors.js";
import { throttledWarning } from "../lib/throttled-warning.js";

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
  request_id: string;
}

export interface RenderedError {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

function zodIssuesOf(error: unknown): ZodLikeIssue[] | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as ZodLikeIssue[]) : undefined;
}

const TRPC_TO_APP: Partial<Record<TRPCError["code"], ErrorCode>> = {
  PARSE_ERROR: "VALIDATION_ERROR",
  BAD_REQUEST: "VALIDATION_ERROR",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_SUPPORTED: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  TOO_MANY_REQUESTS: "RATE_LIMITED",
};

/** The error envelope. Messages may echo ids or paths from the request, so PANs in them are masked. */
export function envelope(requestId: string, code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorEnvelope {
  return { success: false, error: { code, message: maskPansInText(message), ...(details ? { details } : {}) }, request_id: requestId };
}

/** What the client may learn of an error, whichever transport answers it. */
export interface PublicError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  headers: Record<string, string>;
  /** A protocol's own error body (OAuth 2.0), replacing the envelope on REST. */
  body?: Record<string, unknown>;
  /** Why the server failed, for its own log: set for INTERNAL (error), UNAVAILABLE (warn: a dry pool, or "down": no database). */
  logAs?: "error" | "warn" | "down";
}

/**
 * Classifies any error. Only AppError messages and validation issues reach the client; anything
 * unexpected is a bare INTERNAL; an exhausted connection pool and a database out of reach (a restart or a
 * failover, see db/connection-errors.ts) are 503s with Retry-After.
 */
export function describeError(error: unknown): PublicError {
  const cause = error instanceof TRPCError && error.cause instanceof AppError ? error.cause : error;
  if (cause instanceof AppError) {
    return {
      status: cause.status,
      code: cause.appCode,
      message: cause.message,
      ...(cause.details ? { details: cause.details } : {}),
      headers: cause.headers ?? {},
      ...(cause.body ? { body: cause.body } : {}),
    };
  }
  if (error instanceof TRPCError) {
    const issues = error.code === "BAD_REQUEST" ? zodIssuesOf(error.cause) : undefined;
    if (issues) return described("VALIDATION_ERROR", "The request is not valid", issuesToDetails(issues));
    // /trpc reports an unparsable body or input as BAD_REQUEST with the parser's own words.
    if (error.code === "BAD_REQUEST" && error.cause instanceof SyntaxError) {
      return described("VALIDATION_ERROR", "The request body is not valid JSON", [{ path: "", message: "Malformed JSON", reason: "malformed_json" }]);
    }
    if (error.code === "BAD_REQUEST" && error.cause instanceof Error) return described("VALIDATION_ERROR", "The request is not valid");
    const code = TRPC_TO_APP[error.code];
    if (code) return described(code, publicMessage(code, error.message));
  }
  if (isPoolExhausted(cause) || isPoolExhausted(error instanceof TRPCError ? error.cause : undefined)) {
    return { ...described("UNAVAILABLE", "The service is busy; retry shortly"), headers: { "Retry-After": "1" }, logAs: "warn" };
  }
  if (isDatabaseUnavailable(error)) {
    return { ...described("UNAVAILABLE", "The service is temporarily unavailable; retry shortly"), headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) }, logAs: "down" };
  }
  return { ...described("INTERNAL", "Internal error"), logAs: "error" };
}

/** Describes an error and logs, with the request id, what the server itself got wrong. */
export function reportError(error: unknown, requestId: string, log: Log): PublicError {
  const outcome = describeError(error);
  if (outcome.logAs === "error") {
    // Never pino's error serializer: it writes every enumerable property, and a pg error can carry
    // its client (connection settings, password included).
    const cause = internalCause(error);
    const stack = cause instanceof Error ? cause.stack : undefined;
    log.error({ error: errorSummary(cause), ...(stack ? { stack } : {}), request_id: requestId }, "unhandled error");
  }
  if (outcome.logAs === "warn") log.warn({ request_id: requestId }, "no database connection became free in time");
  if (outcome.logAs === "down") databaseDown(log, { error: errorSummary(internalCause(error)) });
  return outcome;
}

/** What a client is told to wait when the database is out of reach: a restart takes a few seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** An outage fails every request at once: one line for the first, then one per interval with the count. */
const databaseDown = throttledWarning("requests answered 503: the database is unreachable", 10_000);

/** Renders any error as the public REST envelope (logging unexpected ones with the request id). */
export function renderError(error: unknown, requestId: string, log: Log): RenderedError {
  const { status, code, message, details, headers, body } = reportError(error, requestId, log);
  return { status, body: body ?? { ...envelope(requestId, code, message, details) }, headers };
}

function described(code: ErrorCode, message: string, details?: ErrorDetail[]): PublicError {
  return { status: ERROR_STATUS[code], code, message, ...(details ? { details } : {}), headers: {} };
}

/** tRPC wraps what a procedure throws; the log wants the original. */
function internalCause(error: unknown): unknown {
  return error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" && error.cause ? error.cause : error;
}

/** tRPC's own messages are safe for these codes; others get a fixed text. */
function publicMessage(code: ErrorCode, message: string): string {
  if (code === "NOT_FOUND") return "Not found";
  if (code === "VALIDATION_ERROR") return message === "Failed to parse request body" ? "Malformed request body" : message;
  return message;
}

/** Prisma's "timed out fetching a connection" (P2024) and "unable to start a transaction" (P2028). */
function isPoolExhausted(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2024" || code === "P2028";
}
