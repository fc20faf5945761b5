import { callTRPCProcedure, type AnyRouter, type TRPCProcedureType } from "@trpc/server";
import {
  acceptsRequestBody,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  normalizePath,
  unwrapZodType,
  type OpenApiProcedureRecord,
} from "trpc-to-openapi";
import type { Meta } from "../trpc/meta.js";
import { queryCoercion, type QueryCoercion } from "./query-input.js";

/** One REST operation: the procedure whose `openapi` meta names this method and path. */
export interface RestRoute {
  /** The procedure's path in the router, e.g. `orders.get`. */
  procedure: string;
  /** The operation's path as the OpenAPI document writes it, e.g. `/api/orders/v1/{id}` (a span's or a metric's route, never the raw path). */
  template: string;
  type: TRPCProcedureType;
  /** POST, PUT and PATCH take their input from the JSON body; GET and DELETE from the query. */
  takesBody: boolean;
  /** False when the procedure's input is void: it is then called without one. */
  takesInput: boolean;
  /** Converts query parameters to the numbers, booleans... the query input declares. */
  coerceQuery: QueryCoercion;
  /** `cache: "static"`: the first response may be served again (see static-responses). */
  cacheStatic: boolean;
  /** Whether the procedure needs a bearer token (`openapi.protect`, true unless false). */
  protect: boolean;
  /** Calls the procedure as tRPC's own HTTP handler does (its error formatter, our middleware, its validators, its resolver). */
  run: (call: ProcedureCall) => Promise<unknown>;
}

/** One call of a procedure, as the REST dispatcher makes it. */
export interface ProcedureCall {
  /** The procedure's path in the router (`orders.get`), for error shapes and middlewares. */
  path: string;
  type: TRPCProcedureType;
  ctx: object;
  getRawInput: () => Promise<unknown>;
}

interface PatternRoute extends RestRoute {
  /** The path as trpc-to-openapi matches it: `{name}` is one segment, letters in any case. */
  pattern: RegExp;
  /** The normalized path of a route without path parameters. */
  exactPath: string | undefined;
}

export interface RouteMatch {
  route: RestRoute;
  /** Path parameters, as sent (still percent-encoded: rest.ts decodes them, see path-params). */
  params: Record<string, string>;
}

/**
 * The route table, built once from the procedures' meta, with trpc-to-openapi's own path rules
 * (the ones its document describes): one trailing slash is optional, routes are tried in the
 * router's order. A path without parameters, sent exactly as declared, is found in a map instead
 * (unless an earlier route's pattern would take it, which the map then leaves to the patterns).
 */
export function restRoutes(router: AnyRouter): (method: string, path: string) => RouteMatch | undefined {
  const byMethod = new Map<string, PatternRoute[]>();
  forEachOpenApiProcedure<Meta>(router._def.procedures as OpenApiProcedureRecord, ({ path, type, procedure, meta }) => {
    if (type === "subscription") return;
    const { method, path: restPath, protect } = meta.openapi;
    const inputSchema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
    const takesBody = acceptsRequestBody(method);
    const route: PatternRoute = {
      procedure: path,
      template: normalizePath(restPath),
      type,
      pattern: getPathRegExp(normalizePath(restPath)),
      takesBody,
      takesInput: !instanceofZodTypeLikeVoid(inputSchema),
      coerceQuery: takesBody ? (input) => input : queryCoercion(inputSchema),
      cacheStatic: meta.cache === "static",
      protect: protect !== false,
      run: (call) => callTRPCProcedure({ router, path: call.path, type: call.type, ctx: call.ctx, getRawInput: call.getRawInput, signal: undefined, batchIndex: 0 }),
      exactPath: restPath.includes("{") ? undefined : normalizePath(restPath),
    };
    byMethod.set(method, [...(byMethod.get(method) ?? []), route]);
  });
  const exact = new Map<string, Map<string, RestRoute>>();
  for (const [method, routes] of byMethod) {
    const paths = new Map<string, RestRoute>();
    routes.forEach((route, index) => {
      const path = route.exactPath;
      if (path === undefined || paths.has(path)) return;
      if (routes.slice(0, index).some((earlier) => earlier.pattern.test(path))) return;
      paths.set(path, route);
    });
    exact.set(method, paths);
  }

  return (method, path) => {
    const normalized = normalizePath(path);
    const route = exact.get(method)?.get(normalized);
    if (route) return { route, params: {} };
    for (const route of byMethod.get(method) ?? []) {
      const found = route.pattern.exec(normalized);
      if (found) return { route, params: { ...found.groups } };
    }
    return undefined;
  };
}
