import { resolve } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { ErrorEnvelope } from "./platform/lib/zod.js";
import { appRouter } from "./router.js";
import { EXAMPLES_NOTE, REQUEST_EXAMPLES } from "./openapi/examples.js";
import { FIELD_DESCRIPTIONS } from "./openapi/fields.js";
import { OPERATIONS, TAGS, type OperationDoc } from "./openapi/operations.js";

type Operation = {
  operationId?: string;
  description?: string;
  responses?: Record<string, Record<string, unknown>>;
  security?: unknown[];
  requestBody?: { content: Record<string, Record<string, unknown>> };
  parameters?: Array<Record<string, unknown>>;
};
type PathItem = Record<string, Operation>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const count = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

/** Headers of the responses (components.headers). */
const HEADERS = {
  "X-Request-Id": {
    description: "The request's id (sent back as given when the request carried a valid one): quote it when asking for support.",
    schema: { type: "string" as const },
  },
  "RateLimit-Limit": count("Requests a full budget allows at once (the burst)."),
  "RateLimit-Remaining": count("Requests left in the budget now."),
  "RateLimit-Reset": count("Seconds until the budget is full again."),
  "Retry-After": count("Seconds to wait before retrying."),
};
const BUDGET_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, ref("headers", name)]));
/** Every answer carries X-Request-Id; every answer of a request that spent its budget the RateLimit-* headers. */
const SUCCESS_HEADERS = headerRefs(["X-Request-Id", ...BUDGET_HEADERS]);

const envelopeContent = { "application/json": { schema: ref("schemas", "ErrorEnvelope") } };
const errorResponse = (description: string, headers: string[] = []) => ({
  description,
  headers: headerRefs(["X-Request-Id", ...headers]),
  content: envelopeContent,
});

/** The error answers every operation shares (components.responses), each saying what to do next. */
const SHARED_ERRORS = {
  BadRequest: errorResponse(
    "The request is not valid (VALIDATION_ERROR): `error.details` names each failing field (`path`) with a closed `reason` " +
      "and what it must be (`message`). Fix those fields and send the request again.",
  ),
  Unauthorized: errorResponse(
    "No valid bearer token (UNAUTHORIZED): get one from POST /api/auth/v1/token (tokens last 3600 s) and send it as " +
      "`Authorization: Bearer <token>`.",
  ),
  PayloadTooLarge: errorResponse("The body is larger than 1 MB (PAYLOAD_TOO_LARGE): send a smaller body."),
  UnsupportedMediaType: errorResponse(
    "The body is not JSON (UNSUPPORTED_MEDIA_TYPE): send it with `Content-Type: application/json`.",
  ),
  RateLimited: errorResponse(
    "The request budget is spent (RATE_LIMITED): wait `Retry-After` seconds, then retry.",
    ["Retry-After", ...BUDGET_HEADERS],
  ),
  Internal: errorResponse("The service failed (INTERNAL): retry later; quote `request_id` if it persists."),
  Unavailable: errorResponse(
    "The service is busy, no database connection became free in time (UNAVAILABLE): retry after `Retry-After` seconds.",
    ["Retry-After"],
  ),
};

const PATH_ID_NOT_FOUND = "The id in the path is unknown or another distributor's (NOT_FOUND): check the id, and that the token is the right distributor's.";

/** Responses whose body or meaning differs from the shared ones, keyed by `METHOD path` and status. */
const RESPONSE_OVERRIDES: Record<string, Record<string, Record<string, unknown>>> = {
  "post /api/auth/v1/token": {
    "429": errorResponse(
      "Too many failed token requests for this client id or from this address (RATE_LIMITED, until the window " +
        "passes, even with the right secret: check the credentials and wait `Retry-After` seconds), or the client's " +
        "request budget is spent.",
      ["Retry-After"],
    ),
    "401": {
      description:
        "Unknown client or wrong secret: check client_id and client_secret (the sandbox prints them at start-up). " +
        "OAuth 2.0 error body (RFC 6749 section 5.2), not the envelope.",
      headers: headerRefs(["X-Request-Id"]),
      content: {
        "application/json": {
          schema: {
            type: "object",
            description: "OAuth 2.0 error body.",
            required: ["error"],
            properties: { error: { type: "string", enum: ["invalid_client"], description: "Always `invalid_client`." } },
          },
        },
      },
    },
    "415": errorResponse(
      "The body is neither JSON nor a form (UNSUPPORTED_MEDIA_TYPE): send `Content-Type: application/json` or " +
        "`application/x-www-form-urlencoded`.",
    ),
  },
  "post /api/broker-changes/v1/{id}/image": {
    "400": errorResponse(
      "The form is not one `file` part (missing, repeated, another part beside it, empty, malformed), or the id is not " +
        "valid (VALIDATION_ERROR, with the part's name as the path): send exactly one part named `file`.",
    ),
    "413": errorResponse(
      "The file is over 10 MB, or the declared Content-Length over 10 MB plus 16 KB (PAYLOAD_TOO_LARGE; the connection " +
        "is closed): scan the form at a lower resolution, or send a PDF.",
    ),
    "415": errorResponse(
      "The body is not multipart/form-data, or the file is not a PDF, JPEG or PNG by its content " +
        "(UNSUPPORTED_MEDIA_TYPE): send the form as a PDF, JPEG or PNG in a multipart/form-data body.",
    ),
  },
};

/**
 * Operations mounted on Hono outside the routers (binary answers), documented by hand, keyed by path.
 * Their error responses are completed like the generated ones (completeOperation).
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
      responses: {},
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
      "`{success: false, error: {code, message, details?}, request_id}`; every response carries X-Request-Id. " +
      EXAMPLES_NOTE,
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
      completeOperation(operation, path);
      Object.assign(operation.responses ?? {}, structuredClone(RESPONSE_OVERRIDES[`${method} ${path}`]));
      if (!operation.security) operation.security = [];
    }
    moveToSpecPaths(paths, path, item);
  }
  document.security = [{ bearerAuth: [] }];
  document.tags = TAGS;
  document.components = {
    ...document.components,
    headers: HEADERS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
    responses: SHARED_ERRORS,
  };
  // trpc-to-openapi's own error schemas are replaced by the envelope above.
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  describeProperties(document);
  document.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

const IDEMPOTENCY_KEY = {
  in: "header" as const,
  name: "Idempotency-Key",
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key and body within 24 hours answers the first response again " +
    "(nothing is created twice); the same key with another body is 409 CONFLICT. 1-255 printable ASCII characters, " +
    "e.g. a UUID. Optional: without it the request simply runs.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

/** Statuses, headers, errors, parameters and examples trpc-to-openapi does not write (see operations.ts). */
function completeOperation(operation: Operation, path: string): void {
  const doc: OperationDoc = OPERATIONS[operation.operationId ?? ""] ?? {};
  if (!operation.description && doc.description) operation.description = doc.description;
  for (const parameter of operation.parameters ?? []) describeParameter(parameter);
  if (doc.idempotent) operation.parameters = [...(operation.parameters ?? []), ref("parameters", "IdempotencyKey")];
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
    const example = REQUEST_EXAMPLES[operation.operationId ?? ""]?.[type];
    if (example !== undefined) media.example = structuredClone(example);
  }

  const generated = operation.responses ?? {};
  const success = generated["200"];
  const responses: Record<string, Record<string, unknown>> = {};
  if (success) {
    if (doc.created) responses["201"] = { ...structuredClone(success), description: doc.created };
    if (!doc.created || doc.repeat) responses["200"] = { ...success, ...(doc.repeat ? { description: doc.repeat } : {}) };
  }
  for (const response of Object.values(responses)) response.headers = { ...SUCCESS_HEADERS };

  const hasPathId = path.includes("{");
  responses["400"] = ref("responses", "BadRequest");
  if (operation.security?.length) responses["401"] = ref("responses", "Unauthorized");
  if (hasPathId || doc.notFound) {
    responses["404"] = errorResponse([hasPathId ? PATH_ID_NOT_FOUND : "", doc.notFound ?? ""].filter(Boolean).join(" Or: "));
  }
  if (doc.conflict) responses["409"] = errorResponse(doc.conflict);
  if (operation.requestBody) {
    responses["413"] = ref("responses", "PayloadTooLarge");
    responses["415"] = ref("responses", "UnsupportedMediaType");
  }
  responses["429"] = ref("responses", "RateLimited");
  responses["500"] = ref("responses", "Internal");
  responses["503"] = ref("responses", "Unavailable");
  operation.responses = responses;
}

/** Parameters: trpc-to-openapi leaves the schema's description on the schema. */
function describeParameter(parameter: Record<string, unknown>): void {
  const schema = parameter.schema as { description?: string } | undefined;
  const name = String(parameter.name);
  parameter.description ??= schema?.description ?? PARAMETER_DESCRIPTIONS[name] ?? FIELD_DESCRIPTIONS[name];
}

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  id: "The resource's id, as its creation answered it.",
  link_id: "The order link's id (`lnk_`...), as in the link's URL.",
  code: "ISO 3166-1 alpha-2 country code (IN for India's states).",
  status: "Only resources in this state.",
  investor_id: "Only this investor's.",
  event: "Only deliveries of this event.",
  // Described on an optional schema, which trpc-to-openapi does not carry to the parameter.
  cursor: "Opaque cursor from the previous page's `next_cursor`.",
  q: "Part of the scheme name, or an exact scheme code or ISIN.",
  remark: "The remark to report (default: a sandbox remark).",
};

/**
 * Every schema property without a description gets the shared one of its name (fields.ts): the most
 * specific of `<operationId> <name>`, `<parent property>.<name>` and `<name>`.
 */
function describeProperties(node: unknown, operationId = "", parent = ""): void {
  if (Array.isArray(node)) return node.forEach((item) => describeProperties(item, operationId, parent));
  if (!node || typeof node !== "object") return;
  const here = (node as { operationId?: unknown }).operationId;
  const op = typeof here === "string" ? here : operationId;
  const properties = (node as { properties?: unknown }).properties;
  const named = properties && typeof properties === "object" && !Array.isArray(properties) ? (properties as Record<string, Record<string, unknown>>) : {};
  for (const [name, schema] of Object.entries(named)) {
    if (!schema || typeof schema !== "object") continue;
    schema.description ??= FIELD_DESCRIPTIONS[`${op} ${name}`] ?? FIELD_DESCRIPTIONS[`${parent}.${name}`] ?? FIELD_DESCRIPTIONS[name];
    describeProperties(schema, op, name);
  }
  for (const [key, value] of Object.entries(node)) if (key !== "properties") describeProperties(value, op, parent);
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
