import type { AnyRouter } from "@trpc/server";
import { AppError, validationError } from "../lib/errors.js";
import { unsafeInputDetails } from "../lib/hostile-input.js";
import { describeError } from "../trpc/errors.js";
import type { Log } from "../lib/logger.js";
import { decodePathParams } from "./path-params.js";
import { pathOf, queryInput, queryOf, type Query } from "./query-input.js";
import { restRoutes, type RouteMatch } from "./rest-routes.js";
import { StaticResponses, type StaticResponse } from "./static-responses.js";

/** What the HTTP layer knows about one /api request before it reaches a procedure. */
export interface RestRequest {
  method: string;
  /** `path?query` as sent. */
  target: string;
  /** The parsed JSON (or, for the token endpoint, form) body of POST, PUT and PATCH. */
  body: Record<string, unknown> | undefined;
  requestId: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The client's address (see client-ip). */
  clientIp: string;
  userAgent?: string | undefined;
  /** `scheme://host` of the request. */
  origin?: string | undefined;
  ifNoneMatch: string | undefined;
  /** The request's logger (bound to its request id), when the HTTP layer made one. */
  log?: Log | undefined;
}

/** What the REST layer asks of the application: a procedure's context, and who may have a protected static response again. */
export interface RestHooks {
  /** The context a procedure runs with for this request; it writes its status and headers on `response`. */
  createContext(request: RestRequest): { response: { status?: number; headers: Record<string, string> } };
  /** Authenticates the caller of a repeated protected static response and spends its budget (headers written on `headers`); throws when refused. */
  admitRepeat(request: { authorization: string | undefined; clientIp: string }, headers: Record<string, string>): Promise<void>;
}

export interface RestResult {
  status: number;
  headers: Record<string, string>;
  /** The output as JSON text; none for a 304 or an output of undefined. */
  json?: string;
  /** The error to render, when the request failed (status is then its status). */
  error?: unknown;
  /** The template of the operation that answered (`/api/orders/v1/{id}`); absent when none matched. */
  route?: string;
}

/**
 * The REST API: every procedure with `openapi` meta is one operation (see rest-routes). A request is
 * matched to its procedure, which is called with the path parameters and the query (GET, DELETE) or
 * the body (POST, PUT, PATCH) as its input, as /trpc would call it; the status and headers it set on
 * `ctx.response` go out with its output.
 */
export function createRestHandler(router: AnyRouter, hooks: RestHooks, options: { staticResponses: boolean }) {
  const match = restRoutes(router);
  const staticResponses = new StaticResponses();

  return async (request: RestRequest): Promise<RestResult> => {
    const query = queryOf(request.target);
    // Every procedure checks its raw input (src/domains/shared/procedures.ts); the query is checked here too, before
    // routing (an unroutable request still answers 400) and as sent (`__proto__` included).
    const unsafe = unsafeInputDetails(query);
    if (unsafe.length > 0) return failed(validationError(unsafe));

    const cached = request.method === "GET" ? staticResponses.get(request.target) : undefined;
    if (cached) return serveStatic(hooks, cached, request);

    const found = match(request.method, pathOf(request.target));
    if (!found) {
      // HEAD on any path is an empty 204, as trpc-to-openapi's handler answered warm-up probes.
      if (request.method === "HEAD") return { status: 204, headers: {} };
      return failed(new AppError("NOT_FOUND", "Not found"));
    }
    const decoded = decodePathParams(found.params);
    if ("details" in decoded) return failed(validationError(decoded.details));
    const { route } = found;
    const ctx = hooks.createContext(request);
    let output: unknown;
    try {
      output = await route.run({ path: route.procedure, type: route.type, ctx, getRawInput: rawInputOf({ route, params: decoded.params }, query, request.body) });
    } catch (error) {
      return { ...failed(error), route: route.template };
    }
    const status = ctx.response.status ?? 200;
    const json = JSON.stringify(output) as string | undefined;
    if (options.staticResponses && route.cacheStatic && request.method === "GET" && status === 200 && json !== undefined) {
      return staticResult(staticResponses.remember(request.target, json, route.protect, route.template), request.ifNoneMatch, ctx.response.headers);
    }
    return { status, headers: ctx.response.headers, ...(json === undefined ? {} : { json }), route: route.template };
  };
}

/** The input's reader, made here: an arrow written in the call would be named on every request under tsx. */
function rawInputOf(match: RouteMatch, query: Query, body: Record<string, unknown> | undefined): () => Promise<unknown> {
  return async () => inputOf(match, query, body);
}

/** Path parameters always win over a query parameter or body field of the same name. */
function inputOf({ route, params }: RouteMatch, query: Query, body: Record<string, unknown> | undefined): unknown {
  if (!route.takesInput) return undefined;
  if (route.takesBody) return { ...body, ...params };
  return route.coerceQuery(queryInput(query, params));
}

/** A repeat of a static response: still authenticated and counted against the budget when the procedure is. */
async function serveStatic(hooks: RestHooks, cached: StaticResponse, request: RestRequest): Promise<RestResult> {
  const budgetHeaders: Record<string, string> = {};
  if (cached.protect) {
    try {
      await hooks.admitRepeat(request, budgetHeaders);
    } catch (error) {
      return { ...failed(error), route: cached.route };
    }
  }
  return staticResult(cached, request.ifNoneMatch, budgetHeaders);
}

function failed(error: unknown): RestResult {
  return { status: describeError(error).status, headers: {}, error };
}

/** Static responses carry an ETag and revalidate cheaply: `If-None-Match` answers 304. */
function staticResult(entry: StaticResponse, ifNoneMatch: string | undefined, extra: Record<string, string>): RestResult {
  const headers = { ...extra, ETag: entry.etag, "Cache-Control": "private, no-cache" };
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === entry.etag)) {
    return { status: 304, headers, route: entry.route };
  }
  return { status: 200, headers, json: entry.json, route: entry.route };
}
