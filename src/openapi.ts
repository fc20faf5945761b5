import { resolve } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { ErrorEnvelope } from "./lib/zod.js";
import { appRouter } from "./router.js";

type Operation = { responses?: Record<string, unknown>; security?: unknown[]; requestBody?: unknown };
type PathItem = Record<string, Operation>;

const ERROR_DESCRIPTIONS: Record<string, string> = {
  "400": "Invalid input (VALIDATION_ERROR, with a path per failing field)",
  "401": "Missing, invalid or expired bearer token (UNAUTHORIZED)",
  "403": "Not allowed (FORBIDDEN)",
  "404": "Not found, or owned by another distributor (NOT_FOUND)",
  "409": "Not possible in the resource's current state (INVALID_STATE), or idempotency key reused (CONFLICT)",
  "413": "Body too large (PAYLOAD_TOO_LARGE)",
  "415": "Unsupported content type (UNSUPPORTED_MEDIA_TYPE)",
  "429": "The API client's request budget is spent (RATE_LIMITED); retry after Retry-After seconds",
  "500": "Internal error (INTERNAL)",
};

const count = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

/** Retry-After and the request budget's headers (also sent on the answers of authenticated requests). */
const RATE_LIMIT_HEADERS = {
  "Retry-After": count("Seconds to wait before retrying."),
  "RateLimit-Limit": count("Requests a full budget allows at once (the burst)."),
  "RateLimit-Remaining": count("Requests left in the budget now."),
  "RateLimit-Reset": count("Seconds until the budget is full again."),
};

const errorResponse = (status: string) => ({
  description: ERROR_DESCRIPTIONS[status] ?? "Error",
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
});

const rateLimited = (description: string) => ({
  ...errorResponse("429"),
  description,
  headers: Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }])),
});

/** Responses whose body is not the envelope, keyed by `METHOD path` and status. */
const RESPONSE_OVERRIDES: Record<string, Record<string, unknown>> = {
  "post /api/auth/v1/token": {
    "429": rateLimited(
      "Too many failed token requests for this client id or from this address (RATE_LIMITED, until the window " +
        "passes, even with the right secret), or the client's request budget is spent.",
    ),
    "401": {
      description: "Unknown client or wrong secret. OAuth 2.0 error body (RFC 6749 section 5.2), not the envelope.",
      content: {
        "application/json": {
          schema: { type: "object", required: ["error"], properties: { error: { type: "string", enum: ["invalid_client"] } } },
        },
      },
    },
  },
};

/**
 * Operations mounted on Hono outside the routers (binary answers), documented by hand, keyed by path.
 * Their error responses are completed like the generated ones (rewriteResponses).
 */
const HONO_OPERATIONS: Record<string, PathItem> = {
  "/api/broker-changes/v1/{id}/image": {
    get: {
      operationId: "brokerChanges-getImage",
      summary: "The signed form of a broker change request, as uploaded (beta)",
      description:
        "The stored bytes with their content type (judged from the bytes at upload), `Content-Length`, " +
        "`Content-Disposition: attachment`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. " +
        "404 for another distributor's request, and before a form is uploaded.",
      tags: ["broker changes (beta)"],
      security: [{ bearerAuth: [] }],
      parameters: [{ in: "path", name: "id", required: true, schema: { type: "string", minLength: 1, maxLength: 64 } }],
      responses: {
        "200": {
          description: "The signed form (PDF, JPEG or PNG).",
          content: Object.fromEntries(
            ["application/pdf", "image/jpeg", "image/png"].map((type) => [type, { schema: { type: "string", format: "binary" } }]),
          ),
        },
      },
    } as Operation,
    post: {
      operationId: "brokerChanges-uploadImage",
      summary: "Upload the signed form of a WET_SIGNATURE broker change request (beta)",
      description:
        "`multipart/form-data` with exactly one file part, `file`: a PDF, JPEG or PNG judged by its bytes (the part's " +
        "declared type is ignored), at most 10 MB (10,485,760 bytes). Streamed: a body over the limit is refused " +
        "(413) as soon as it passes it, and one whose Content-Length declares more than 10 MB plus 16 KB of " +
        "multipart framing before a byte is read. The request must be yours and PENDING_DOCUMENT (checked before " +
        "the body is read). Stores the file with its SHA-256, size and content type and moves the request to " +
        "SUBMITTED (event `broker_change.submitted`) in one transaction; of two concurrent uploads one wins, the " +
        "other is 409. Every refusal closes the connection (`Connection: close`). Example: " +
        "`curl -H \"Authorization: Bearer $TOKEN\" -F file=@form.pdf .../api/broker-changes/v1/{id}/image`.",
      tags: ["broker changes (beta)"],
      security: [{ bearerAuth: [] }],
      parameters: [{ in: "path", name: "id", required: true, schema: { type: "string", minLength: 1, maxLength: 64 } }],
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["file"],
              additionalProperties: false,
              properties: { file: { type: "string", format: "binary", description: "The signed form: PDF, JPEG or PNG, at most 10 MB." } },
            },
            encoding: { file: { contentType: "application/pdf, image/jpeg, image/png" } },
          },
        },
      },
      // 200: the record, as GET /api/broker-changes/v1/{id} answers it (filled in from the generated document).
      responses: { "409": {} },
    } as Operation,
  },
};

/** Error descriptions of the upload, more precise than the shared ones. */
const UPLOAD_ERRORS: Record<string, string> = {
  "400": "The form is not one `file` part (missing, repeated, another part beside it, empty, malformed), or the id is not valid (VALIDATION_ERROR, with the part's name as the path)",
  "409": "The request is not a WET_SIGNATURE request awaiting its form (PENDING_DOCUMENT): INVALID_STATE",
  "413": "The file is over 10 MB, or the declared Content-Length over 10 MB plus 16 KB (PAYLOAD_TOO_LARGE); the connection is closed",
  "415": "The body is not multipart/form-data, or the file is not a PDF, JPEG or PNG by its content (UNSUPPORTED_MEDIA_TYPE)",
};

/**
 * Paths the specification writes differently from trpc-to-openapi's normalised form (it drops a
 * trailing slash when routing and documenting). Keyed by `METHOD normalised-path`.
 */
export const SPEC_PATHS: Record<string, string> = {
  "POST /api/orders/v1": "/api/orders/v1/",
};

/** The OpenAPI document of the REST interface, generated from the routers. */
export function buildOpenApiDocument(appRouter: AnyRouter): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Mutual fund distribution service",
    description:
      "REST interface for mutual fund distributors (ARN holders): holdings, orders, public order links, " +
      "investor onboarding, mandates, webhooks and sandbox simulation. Errors use the envelope " +
      "`{success: false, error: {code, message, details?}, request_id}`; every response carries X-Request-Id.",
    version: "1.0.0",
    baseUrl: "/",
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description: "Opaque access token from POST /api/auth/v1/token (client credentials), valid 3600 s.",
      },
    },
    defs: { ErrorEnvelope },
  });
  const paths = (document.paths ?? {}) as Record<string, PathItem>;
  for (const [path, item] of Object.entries(HONO_OPERATIONS)) paths[path] = { ...paths[path], ...structuredClone(item) };
  const upload = paths["/api/broker-changes/v1/{id}/image"]?.post;
  const record = paths["/api/broker-changes/v1/{id}"]?.get?.responses?.["200"];
  if (upload?.responses && record) upload.responses["200"] = { ...structuredClone(record), description: "The updated request: SUBMITTED, with its `document`." };
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      rewriteResponses(operation, method);
      Object.assign(operation.responses ?? {}, RESPONSE_OVERRIDES[`${method} ${path}`]);
      if (method === "post" && path === "/api/broker-changes/v1/{id}/image") {
        for (const [status, description] of Object.entries(UPLOAD_ERRORS)) operation.responses![status] = { ...errorResponse(status), description };
      }
      if (!operation.security) operation.security = [];
    }
    moveToSpecPaths(paths, path, item);
  }
  document.security = [{ bearerAuth: [] }];
  document.components = {
    ...document.components,
    headers: RATE_LIMIT_HEADERS,
    responses: { RateLimited: rateLimited(ERROR_DESCRIPTIONS["429"]!) },
  };
  // trpc-to-openapi's own error schemas are replaced by the envelope above.
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  document.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

function rewriteResponses(operation: Operation, method: string): void {
  const responses = operation.responses ?? {};
  // No procedure answers 403 yet; only statuses the service can produce are documented.
  delete responses["403"];
  for (const status of Object.keys(responses)) {
    if (Number(status) >= 400) responses[status] = errorResponse(status);
  }
  const statuses = ["400", "404", "500"];
  if (operation.security?.length) statuses.push("401", "429");
  if (method === "post" || method === "put" || method === "patch") statuses.push("413", "415");
  for (const status of statuses) responses[status] ??= status === "429" ? { $ref: "#/components/responses/RateLimited" } : errorResponse(status);
  operation.responses = responses;
}

function moveToSpecPaths(paths: Record<string, PathItem>, path: string, item: PathItem): void {
  for (const method of Object.keys(item)) {
    const specPath = SPEC_PATHS[`${method.toUpperCase()} ${path}`];
    if (!specPath || specPath === path) continue;
    paths[specPath] = { ...paths[specPath], [method]: item[method]! };
    delete item[method];
  }
  if (Object.keys(item).length === 0) delete paths[path];
}

/** The committed document at the top of the repository. */
export const OPENAPI_FILE = resolve(import.meta.dirname, "..", "openapi.json");

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`;
}
