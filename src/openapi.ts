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
  },
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
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      rewriteResponses(operation, method);
      Object.assign(operation.responses ?? {}, RESPONSE_OVERRIDES[`${method} ${path}`]);
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
