import { z } from "zod";
import { DETAIL_REASONS, ERROR_STATUS, formatPath, isDetailReason, UNKNOWN_FIELD, validationError, type DetailReason, type ErrorCode, type ErrorDetail } from "./errors.js";

/** Shared request and response pieces. */

export const Limit = (max = 200, fallback = 50) =>
  z.coerce.number().int().min(1).max(max).default(fallback).describe(`Page size, 1-${max} (default ${fallback}).`);

export const Cursor = z
  .string()
  .max(512)
  .optional()
  .describe("Opaque cursor from the previous page's `next_cursor`.");

export const NextCursor = z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page.");

/** Cursors are opaque base64url JSON; a tampered one is a 400 on `cursor`. */
function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

function decodeCursor(cursor: string, arity: number): string[] | undefined {
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(values) && values.length === arity && values.every((v) => typeof v === "string")) {
      return values as string[];
    }
  } catch {
    // fall through
  }
  return undefined;
}

/** The keys a page continues after, or undefined for the first page; a damaged cursor is a 400. */
export function readCursor(cursor: string | undefined, arity: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  const values = decodeCursor(cursor, arity);
  if (!values) throw validationError([{ path: "cursor", message: "Unknown or damaged cursor: pass next_cursor as the last page gave it, or start without a cursor", reason: "invalid_cursor" }]);
  return values;
}

/**
 * One page of a keyset query that fetched `limit + 1` rows: the extra row only says that a next
 * page exists, whose cursor holds the keys of the page's last row.
 */
export function toPage<R, V>(rows: R[], limit: number, keysOf: (row: R) => string[], view: (row: R) => V) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(view), next_cursor: rows.length > limit && last ? encodeCursor(keysOf(last)) : null };
}

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorEnvelope = z
  .object({
    success: z.literal(false).describe("Always false in an error."),
    error: z
      .object({
        code: z.enum(ERROR_CODES).describe("What went wrong, from a closed list (docs/guide.md, \"Errors\": what each means and what to do)."),
        message: z.string().describe("What went wrong and what to change, in words (PANs masked)."),
        details: z
          .array(
            z.object({
              path: z.string().describe("The failing field, dotted (`bank_accounts[0].ifsc`); empty for the whole body; a header's name for a header."),
              message: z.string().describe("What the field must be."),
              reason: z.enum(DETAIL_REASONS).describe("Why the field failed, from a closed list (docs/guide.md, \"Errors\")."),
            }),
          )
          .optional()
          .describe("VALIDATION_ERROR: one entry per failing field."),
      })
      .describe("What went wrong."),
    request_id: z.string().describe("The request's id, also in the X-Request-Id header: quote it when asking for support."),
  })
  .describe("The error envelope of every error response.");

/** The input of a procedure that takes no parameters (unknown query parameters are refused). */
export const NoInput = z.strictObject({});

/** A zod issue as far as a 400 detail needs it. */
export interface ZodLikeIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  params?: Record<string, unknown>;
  /** invalid_type: the type the schema wanted. */
  expected?: string;
}

const REASON_OF_ZOD_CODE: Record<string, DetailReason> = {
  invalid_type: "invalid_type",
  invalid_value: "invalid_value",
  invalid_union: "invalid_value",
  invalid_key: "invalid_value",
  invalid_element: "invalid_value",
  invalid_format: "invalid_format",
  too_small: "too_small",
  too_big: "too_big",
  not_multiple_of: "not_multiple",
  unrecognized_keys: "unknown_field",
};

/**
 * The reason of a zod issue: a refinement names its own (`params: {reason}`); a missing field is
 * `required` (zod drops the input from its issues, but its message says what was received).
 */
function reasonOf(issue: ZodLikeIssue): DetailReason {
  if (issue.code === "custom") return isDetailReason(issue.params?.reason) ? issue.params.reason : "rule_violated";
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return "required";
  return REASON_OF_ZOD_CODE[issue.code] ?? "invalid_value";
}

/** Zod's own words, except for a missing field, where "received undefined" does not say what to do. */
function messageOf(issue: ZodLikeIssue): string {
  if (issue.code === "invalid_type" && reasonOf(issue) === "required") return `Required: add this field (${issue.expected ?? "a value"})`;
  return issue.message;
}

/** Zod issues as the 400 details of the error envelope (one per unknown key). */
export function issuesToDetails(issues: readonly ZodLikeIssue[]): ErrorDetail[] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: UNKNOWN_FIELD, reason: "unknown_field" as const }))
      : [{ path: formatPath(issue.path), message: messageOf(issue), reason: reasonOf(issue) }],
  );
}
