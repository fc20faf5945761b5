import { TRPCError } from "@trpc/server";
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../lib/errors.js";
import type { Log } from "../lib/logger.js";
import { maskPansInText } from "../lib/mask.js";

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

interface ZodLikeIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** `nominees[0].relationship` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    return out ? `${out}.${String(part)}` : String(part);
  }, "");
}

export function issuesToDetails(issues: readonly ZodLikeIssue[]): ErrorDetail[] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: "Unknown field" }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
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

/**
 * Renders any error as the public envelope. Only AppError messages and validation issues reach the
 * client; anything unexpected becomes a bare 500 and is logged with the request id.
 */
export function renderError(error: unknown, requestId: string, log: Log): RenderedError {
  const cause = error instanceof TRPCError && error.cause instanceof AppError ? error.cause : error;
  if (cause instanceof AppError) {
    return {
      status: cause.status,
      body: cause.body ?? { ...envelope(requestId, cause.appCode, cause.message, cause.details) },
      headers: cause.headers ?? {},
    };
  }
  if (error instanceof TRPCError) {
    const issues = error.code === "BAD_REQUEST" ? zodIssuesOf(error.cause) : undefined;
    if (issues) {
      return rendered(envelope(requestId, "VALIDATION_ERROR", "The request is not valid", issuesToDetails(issues)));
    }
    const code = TRPC_TO_APP[error.code];
    if (code) return rendered(envelope(requestId, code, publicMessage(code, error.message)));
  }
  if (isPoolExhausted(cause) || isPoolExhausted(error instanceof TRPCError ? error.cause : undefined)) {
    log.warn({ request_id: requestId }, "no database connection became free in time");
    return rendered(envelope(requestId, "UNAVAILABLE", "The service is busy; retry shortly"), { "Retry-After": "1" });
  }
  log.error({ err: error, request_id: requestId }, "unhandled error");
  return rendered(envelope(requestId, "INTERNAL", "Internal error"));
}

function rendered(body: ErrorEnvelope, headers: Record<string, string> = {}): RenderedError {
  return { status: ERROR_STATUS[body.error.code], body: { ...body }, headers };
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
