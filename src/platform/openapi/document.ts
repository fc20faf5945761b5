import type { AnyRouter } from "@trpc/server";
import {
  forEachOpenApiProcedure,
  generateOpenApiDocument,
  getInputOutputParsers,
  normalizePath,
  type GenerateOpenApiDocumentOptions,
  type OpenAPIObject,
  type OpenApiProcedureRecord,
} from "trpc-to-openapi";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import type { ZodType } from "zod";
import { errorResponse, HEADERS, IDEMPOTENCY_KEY, ref, sharedErrorResponses, SUCCESS_HEADERS, type SharedError } from "./components.js";
import type { ErrorStatus, HandWrittenOperation, OperationDocs, TagDoc } from "./docs.js";
import { placeDescriptionsAfter } from "./fields.js";

/**
 * The OpenAPI document of the procedures (and of the operations documented by hand): trpc-to-openapi
 * writes the paths, parameters and schemas; each procedure's `docs` (meta) gives its summary, description
 * and tag, the statuses it answers (201, a repeat's 200, the 404s and 409s it names, error answers of its
 * own), the Idempotency-Key it honours and its request examples. Every operation then gets the error
 * answers it can give (400, 401 with a token, 404 with an id in the path, 413/415 with a body, 429, 500,
 * 503) and the headers every answer carries. Field descriptions come from the zod schemas.
 */
export interface DocumentOptions {
  /** trpc-to-openapi's own options: title, description, version, base URL, security schemes, shared schemas. */
  info: Omit<GenerateOpenApiDocumentOptions, "paths" | "filter" | "tags">;
  /** The reference's sections, in the order it shows them. */
  tags: TagDoc[];
  /** What each shared error answer says. */
  sharedErrors: Record<SharedError, string>;
  /** The 404 of an operation whose path names an id. */
  pathIdNotFound: string;
  /** Operations served outside the procedures. */
  handWritten?: HandWrittenOperation[];
}

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  responses?: Record<string, Record<string, unknown>>;
  security?: unknown[];
  requestBody?: { content: Record<string, Record<string, unknown>> };
  parameters?: Array<Record<string, unknown>>;
};
type PathItem = Record<string, Operation>;

/** What the document needs of one operation beyond what trpc-to-openapi wrote. */
interface Documented {
  operationId: string;
  method: string;
  /** trpc-to-openapi's path (without a trailing slash). */
  path: string;
  /** The path as the procedure writes it, where it differs (a trailing slash). */
  specPath?: string;
  docs?: OperationDocs;
  /** The input's fields, whose descriptions the query and path parameters take. */
  fields: Record<string, ZodType>;
  /** A request body written by hand, kept as written. */
  requestBody?: HandWrittenOperation["requestBody"];
}

export function buildDocument(router: AnyRouter, options: DocumentOptions): OpenAPIObject {
  const securityNames = Object.keys(options.info.securitySchemes ?? {});
  const document = generateOpenApiDocument(router, { ...options.info, paths: handWrittenPaths(options.handWritten ?? [], securityNames) });
  const paths = (document.paths ?? {}) as Record<string, PathItem>;
  const operations = [...procedureOperations(router), ...(options.handWritten ?? []).map(handWrittenOperation)];
  for (const found of operations) {
    const operation = paths[found.path]?.[found.method];
    if (!operation) continue;
    if (found.requestBody) operation.requestBody = structuredClone(found.requestBody);
    if (found.docs) {
      operation.summary = found.docs.summary;
      operation.description = found.docs.description;
      operation.tags = [found.docs.tag.name];
    }
    completeOperation(operation, found, options);
  }
  for (const item of Object.values(paths)) for (const operation of Object.values(item)) operation.security ??= [];
  for (const found of operations) if (found.specPath) moveToSpecPath(paths, found);

  document.security = securityNames.map((name) => ({ [name]: [] }));
  document.tags = options.tags.map(({ name, description }) => ({ name, description }));
  document.components = {
    ...document.components,
    headers: HEADERS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
    responses: sharedErrorResponses(options.sharedErrors),
  };
  // trpc-to-openapi's own error schemas give way to the shared error answers.
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  document.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  placeDescriptionsAfter(document);
  return document;
}

/** Each operation's docs by operationId (undefined for a procedure without them), for the tests. */
export function operationDocs(router: AnyRouter, handWritten: HandWrittenOperation[] = []): Map<string, OperationDocs | undefined> {
  return new Map([...procedureOperations(router), ...handWritten.map(handWrittenOperation)].map(({ operationId, docs }) => [operationId, docs]));
}

function procedureOperations(router: AnyRouter): Documented[] {
  const found: Documented[] = [];
  forEachOpenApiProcedure<{ docs?: OperationDocs }>(router._def.procedures as OpenApiProcedureRecord, ({ path: key, procedure, meta }) => {
    const input = getInputOutputParsers(procedure).inputParser as { shape?: Record<string, ZodType> };
    const path = normalizePath(meta.openapi.path);
    found.push({
      // trpc-to-openapi's operationId.
      operationId: meta.openapi.operationId ?? key.replace(/\./g, "-"),
      method: meta.openapi.method.toLowerCase(),
      path,
      ...(path !== meta.openapi.path ? { specPath: meta.openapi.path } : {}),
      ...(meta.docs ? { docs: meta.docs } : {}),
      fields: input.shape ?? {},
    });
  });
  return found;
}

const handWrittenOperation = ({ operationId, method, path, docs, requestBody }: HandWrittenOperation): Documented => ({
  operationId,
  method,
  path,
  docs,
  fields: {},
  ...(requestBody ? { requestBody } : {}),
});

function handWrittenPaths(operations: HandWrittenOperation[], securityNames: string[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const { method, path, operationId, docs, parameters, requestBody, success } of operations) {
    paths[path] = {
      ...paths[path],
      [method]: {
        operationId,
        summary: docs.summary,
        description: docs.description,
        tags: [docs.tag.name],
        security: securityNames.map((name) => ({ [name]: [] })),
        // Copied: the parameters are completed in place.
        parameters: structuredClone(parameters),
        // zod-openapi would write the media types' keys in its own order: the body is put back as written (buildDocument).
        ...(requestBody ? { requestBody: structuredClone(requestBody) } : {}),
        responses: { "200": success },
      },
    };
  }
  return paths;
}

/** Statuses, headers, errors, parameters and examples trpc-to-openapi does not write. */
function completeOperation(operation: Operation, found: Documented, options: DocumentOptions): void {
  const docs: Partial<OperationDocs> = found.docs ?? {};
  for (const parameter of operation.parameters ?? []) describeParameter(parameter, found.fields);
  if (docs.idempotent) operation.parameters = [...(operation.parameters ?? []), ref("parameters", "IdempotencyKey")];
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
    const example = docs.examples?.[type];
    if (example !== undefined) media.example = structuredClone(example);
  }

  const generated = operation.responses ?? {};
  const success = generated["200"];
  const responses: Record<string, Record<string, unknown>> = {};
  if (success) {
    if (docs.created) responses["201"] = { ...structuredClone(success), description: docs.created };
    if (!docs.created || docs.repeat) responses["200"] = { ...success, ...(docs.repeat ? { description: docs.repeat } : {}) };
  }
  for (const response of Object.values(responses)) response.headers = { ...SUCCESS_HEADERS };
  if (docs.alternativeContent && responses["200"]) {
    const content = responses["200"].content as Record<string, unknown> | undefined;
    responses["200"].content = { ...content, ...structuredClone(docs.alternativeContent) };
  }

  const hasPathId = found.path.includes("{");
  responses["400"] = ref("responses", "BadRequest");
  if (operation.security?.length) responses["401"] = ref("responses", "Unauthorized");
  if (hasPathId || docs.notFound) {
    const description = [hasPathId ? options.pathIdNotFound : "", docs.notFound ?? ""].filter(Boolean).join(" Or: ");
    responses["404"] = errorResponse({ description });
  }
  if (docs.conflict) responses["409"] = errorResponse({ description: docs.conflict });
  if (operation.requestBody) {
    responses["413"] = ref("responses", "PayloadTooLarge");
    responses["415"] = ref("responses", "UnsupportedMediaType");
  }
  responses["429"] = ref("responses", "RateLimited");
  responses["500"] = ref("responses", "Internal");
  responses["503"] = ref("responses", "Unavailable");
  for (const [status, response] of Object.entries(docs.responses ?? {})) responses[status as ErrorStatus] = errorResponse(response);
  operation.responses = responses;
}

/**
 * A parameter's description, written last: its own, else its schema's, else its input field's, where
 * trpc-to-openapi leaves it out: an optional field's (on the `.optional()` it unwraps) or a path field's
 * `.meta({ param: { description } })`, which keeps it off the parameter's schema.
 */
function describeParameter(parameter: Record<string, unknown>, fields: Record<string, ZodType>): void {
  const schema = parameter.schema as { description?: string } | undefined;
  const field = fields[String(parameter.name)]?.meta();
  const description = (parameter.description as string | undefined) ?? schema?.description ?? field?.param?.description ?? field?.description;
  delete parameter.description;
  if (description !== undefined) parameter.description = description;
}

function moveToSpecPath(paths: Record<string, PathItem>, { method, path, specPath }: Documented): void {
  const item = paths[path];
  const operation = item?.[method];
  if (!item || !operation || !specPath) return;
  paths[specPath] = { ...paths[specPath], [method]: operation };
  delete item[method];
  if (Object.keys(item).length === 0) delete paths[path];
}
