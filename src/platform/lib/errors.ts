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

/**
 * The closed set of `reason` codes of a 400's details: what a client can branch on, whichever
 * resource answered. docs/guide.md ("Errors") explains each one; adding one means a row there too.
 */
export const DETAIL_REASONS = [
  // Schema validation (from the zod issue code).
  "required", "invalid_type", "invalid_value", "invalid_format", "too_small", "too_big", "not_multiple",
  "unknown_field", "invalid_date", "too_many_decimals", "invalid_country",
  // Dates and identity.
  "date_in_future", "date_in_past", "not_individual_pan", "age_not_allowed", "field_not_allowed", "rule_violated", "duplicate",
  // The request itself.
  "nul_character", "too_deep", "malformed_json", "incomplete_body", "repeated_field", "invalid_cursor",
  // Conflicts with stored data.
  "pan_already_registered", "bank_account_not_found",
  // Orders.
  "investor_mismatch", "investor_not_registered", "mandate_not_registered", "amount_exceeds_mandate_limit",
  "before_mandate_start", "after_mandate_end", "beyond_mandate_end", "sip_not_active", "scheme_not_found",
  "purchase_not_allowed", "sip_not_allowed", "redemption_not_allowed", "same_scheme", "amount_below_minimum",
  "amount_not_multiple", "no_units_held", "units_exceed_holding", "amount_exceeds_holding", "units_locked", "nomination_required",
  // The exchange's scheme master and SIP master (issue 23): the code for the holding mode, its flags and limits.
  "scheme_not_tradable", "stp_not_allowed", "swp_not_allowed", "switch_not_allowed", "amount_above_maximum",
  "units_below_minimum", "units_above_maximum", "units_not_multiple", "sip_frequency_not_allowed", "sip_date_not_allowed",
  "installments_out_of_range", "sip_start_too_soon", "sip_start_too_late",
  // Webhooks.
  "target_not_allowed",
  // Broker change requests.
  "investor_not_found", "amc_not_found",
] as const;

export type DetailReason = (typeof DETAIL_REASONS)[number];

/** Where a 400 went wrong: the field, a sentence, and a reason from DETAIL_REASONS. */
export interface ErrorDetail {
  path: string;
  message: string;
  reason: DetailReason;
}

export function isDetailReason(value: unknown): value is DetailReason {
  return typeof value === "string" && (DETAIL_REASONS as readonly string[]).includes(value);
}

/**
 * The one application error. It knows no transport: `src/domains/shared/procedures.ts` turns it into the tRPC error of
 * its code (carrying it as the cause) and `trpc/errors.ts` renders it as the public envelope.
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

/** The message of an `unknown_field` detail. */
export const UNKNOWN_FIELD = "Unknown field: remove it, or check its spelling";

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
export const invalidState = (message: string) => new AppError("INVALID_STATE", message);
export const validationError = (details: ErrorDetail[], message = "The request is not valid") =>
  new AppError("VALIDATION_ERROR", message, { details });
