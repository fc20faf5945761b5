import type { HeaderName, ResponseDoc } from "./docs.js";

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const count = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

/** Headers of the answers (components.headers). */
export const HEADERS: Record<HeaderName, { description: string; schema: { type: "string" | "integer"; minimum?: number } }> = {
  "X-Request-Id": {
    description: "The request's id (sent back as given when the request carried a valid one): quote it when asking for support.",
    schema: { type: "string" as const },
  },
  "RateLimit-Limit": count("Requests a full budget allows at once (the burst)."),
  "RateLimit-Remaining": count("Requests left in the budget now."),
  "RateLimit-Reset": count("Seconds until the budget is full again."),
  "Retry-After": count("Seconds to wait before retrying."),
};

export const BUDGET_HEADERS: HeaderName[] = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

export const headerRefs = (names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, ref("headers", name)]));

/** Every answer carries X-Request-Id; every answer of a request that spent its budget the RateLimit-* headers. */
export const SUCCESS_HEADERS = headerRefs(["X-Request-Id", ...BUDGET_HEADERS]);

/** An error answer: the error envelope (components.schemas.ErrorEnvelope) unless another body is given. */
export function errorResponse({ description, headers = [], schema }: ResponseDoc) {
  return {
    description,
    headers: headerRefs(["X-Request-Id", ...headers]),
    content: { "application/json": { schema: schema ?? ref("schemas", "ErrorEnvelope") } },
  };
}

/** The error answers every operation shares (components.responses); the document names what each says. */
export type SharedError = "BadRequest" | "Unauthorized" | "PayloadTooLarge" | "UnsupportedMediaType" | "RateLimited" | "Internal" | "Unavailable";

/** The headers of each shared error answer besides X-Request-Id. */
const SHARED_ERROR_HEADERS: Partial<Record<SharedError, HeaderName[]>> = {
  RateLimited: ["Retry-After", ...BUDGET_HEADERS],
  Unavailable: ["Retry-After"],
};

export function sharedErrorResponses(descriptions: Record<SharedError, string>) {
  return Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [name, errorResponse({ description, headers: SHARED_ERROR_HEADERS[name as SharedError] })]),
  );
}

export const IDEMPOTENCY_KEY = {
  in: "header" as const,
  name: "Idempotency-Key",
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key and body within 24 hours answers the first response again " +
    "(nothing is created twice); the same key with another body is 409 CONFLICT. 1-255 printable ASCII characters, " +
    "e.g. a UUID. Optional: without it the request simply runs.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};
