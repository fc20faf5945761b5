import { maskPansInText } from "./mask.js";

/** The closed set of error codes of the public error envelope, with their HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID_STATE: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
  /** A closed reason code, where the rule has one (orders: `amount_below_minimum`, ...). */
  reason?: string;
}

/**
 * The one application error. It knows no transport: `trpc/init.ts` turns it into the tRPC error of
 * its code (carrying it as the cause) and `http/errors.ts` renders it as the public envelope.
 */
export class AppError extends Error {
  readonly appCode: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** Replaces the envelope entirely, for protocols with their own error body (OAuth 2.0). */
  readonly body: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    // Messages may echo an id from the request; anything PAN-shaped in them is masked (both transports).
    super(maskPansInText(message));
    this.name = "AppError";
    this.appCode = code;
    this.details = options.details;
    this.body = options.body;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.appCode];
  }
}

/** `nominees[0].relationship` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    return out ? `${out}.${String(part)}` : String(part);
  }, "");
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
export const invalidState = (message: string) => new AppError("INVALID_STATE", message);
export const validationError = (details: ErrorDetail[], message = "The request is not valid") =>
  new AppError("VALIDATION_ERROR", message, { details });
