import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { z } from "zod";
import { validationError } from "../lib/errors.js";
import { unsafeInputDetails } from "../lib/hostile-input.js";
import { createContext, type Context } from "../trpc/context.js";
import type { Services } from "../core/services.js";
import { spendBudget } from "../core/request-budget.js";
import { describeError } from "./errors.js";
import { StaticResponses } from "./static-responses.js";

/** What the HTTP layer knows about one request before it reaches a procedure. */
export interface RestRequest {
  request: Request;
  requestId: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The client's address (see client-ip). */
  clientIp: string;
  /** The parsed JSON (or converted form) body; undefined for GET and DELETE. */
  body: Record<string, unknown> | undefined;
  /** `path?query` of the request. */
  target: string;
  ifNoneMatch: string | undefined;
}

export interface RestResult {
  status: number;
  headers: Record<string, string>;
  /** The success body as JSON text, or the error to render. */
  json?: string;
  error?: unknown;
  procedurePath?: string;
}

const STATE = Symbol("rest-state");
/** Procedures finish what they start; no request-scoped cancellation is offered to them. */
const NEVER_ABORTED = new AbortController().signal;

interface RequestState {
  requestId: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  clientIp: string;
  error?: unknown;
  /** The procedure that answered, once known. */
  procedurePath?: string;
}

/**
 * The routing input of a body-taking procedure: its path parameters as strings and every other key
 * kept as sent. Strings are never coerced, so the handler changes nothing.
 */
function passThrough(path: string | undefined) {
  const params = [...(path ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return z.looseObject(Object.fromEntries(params.map((name) => [name, z.string()])));
}

type ProcedureMeta = { openapi?: { method?: string; path?: string; protect?: boolean }; cache?: "static" };
type Procedures = Record<string, { _def: { meta?: ProcedureMeta; inputs: unknown[] } }>;

/**
 * The router as trpc-to-openapi's handler sees it. The handler coerces every number and boolean in
 * a body schema (so `"false"` would become `true`) and mutates the schema to do it. Procedures that
 * take a body are therefore routed with a pass-through input; the real procedure, called through
 * the original router's caller, validates the body strictly. Query inputs keep the handler's coercion.
 */
function routingView(appRouter: AnyRouter): AnyRouter {
  const procedures = appRouter._def.procedures as Procedures;
  const routed = Object.fromEntries(
    Object.entries(procedures).map(([path, procedure]) => {
      const { method, path: restPath } = procedure._def.meta?.openapi ?? {};
      const takesBody = method === "POST" || method === "PUT" || method === "PATCH";
      return [path, takesBody ? { ...procedure, _def: { ...procedure._def, inputs: [passThrough(restPath)] } } : procedure];
    }),
  );
  return { ...appRouter, _def: { ...appRouter._def, procedures: routed } } as AnyRouter;
}

/**
 * REST requests go through trpc-to-openapi's OpenAPI handler (the core its fetch adapter wraps),
 * built once: the fetch adapter rebuilds it, with a full document check, on every request.
 */
export function createRestHandler(appRouter: AnyRouter, services: Services, options: { staticResponses: boolean }) {
  const states = new WeakMap<Context, RequestState>();
  const staticProcedures = new Map(
    Object.entries(appRouter._def.procedures as Procedures)
      .filter(([, procedure]) => options.staticResponses && procedure._def.meta?.cache === "static")
      .map(([path, procedure]) => [path, procedure._def.meta?.openapi?.protect !== false]),
  );
  const staticResponses = new StaticResponses();

  const handler = createOpenApiNodeHttpHandler({
    router: routingView(appRouter),
    createContext: ({ req }: { req: unknown }) => {
      const state = (req as { [STATE]: RequestState })[STATE];
      const ctx = createContext(services, state);
      states.set(ctx, state);
      return ctx;
    },
    responseMeta: ({ ctx, errors, paths }: { ctx?: Context; errors: unknown[]; paths?: string[] }) => {
      if (errors.length > 0 || !ctx) return {};
      const state = states.get(ctx);
      if (state) state.procedurePath = paths?.[0];
      return { status: ctx.response.status ?? 200, headers: ctx.response.headers };
    },
    onError: ({ error, req }: { error: unknown; req: unknown }) => {
      (req as { [STATE]: RequestState })[STATE].error = error;
    },
  } as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  const dispatch = (input: RestRequest, query: Query): Promise<RestResult> => {
    const state: RequestState = {
      requestId: input.requestId,
      authorization: input.authorization,
      idempotencyKey: input.idempotencyKey,
      clientIp: input.clientIp,
    };
    // The handler reads a Request. It only asks the headers for the content type, and the body has
    // already been parsed; reading `signal` or copying the headers would make the server build a
    // full Request object, which costs more than the rest of a small request.
    const headers = { get: (name: string) => (name.toLowerCase() === "content-type" && input.body !== undefined ? "application/json" : null) };
    const extras: Record<PropertyKey, unknown> = {};
    const request = new Proxy(input.request, {
      get(target, prop) {
        if (prop === STATE) return state;
        if (prop === "body") return input.body;
        if (prop === "query") return query;
        if (prop === "headers") return headers;
        if (prop === "signal") return NEVER_ABORTED;
        if (prop in extras) return extras[prop];
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
      set(_target, prop, value) {
        extras[prop] = value;
        return true;
      },
    });

    return new Promise<RestResult>((resolve) => {
      const responseHeaders: Record<string, string> = {};
      let status = 200;
      const response = {
        setHeader: (key: string, value: string | string[]) => {
          responseHeaders[key] = Array.isArray(value) ? value.join(", ") : value;
        },
        get statusCode() {
          return status;
        },
        set statusCode(code: number) {
          status = code;
        },
        end: (json?: string) => resolve({ status, headers: responseHeaders, json, error: state.error, procedurePath: state.procedurePath }),
      };
      void (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(request, response);
    });
  };

  return async (input: RestRequest): Promise<RestResult> => {
    const query = queryOf(input.target);
    // The input checks every procedure applies (src/trpc/init.ts) run on the query here too: before
    // routing (an unroutable request still answers 400), and on the query as sent, since `__proto__`
    // cannot survive the handler's copy of it into a plain object.
    const unsafe = unsafeInputDetails(query);
    if (unsafe.length > 0) return { status: 400, headers: {}, error: validationError(unsafe) };
    const isGet = input.request.method === "GET";
    const cached = isGet ? staticResponses.get(input.target) : undefined;
    if (cached) {
      const budgetHeaders: Record<string, string> = {};
      if (cached.protect) {
        try {
          const caller = await services.auth.authenticate(input.authorization);
          spendBudget(services.budget, caller.clientId, budgetHeaders);
        } catch (error) {
          return { status: describeError(error).status, headers: {}, error };
        }
      }
      return staticResult(cached, input.ifNoneMatch, budgetHeaders);
    }
    const result = await dispatch(input, query);
    const protect = result.procedurePath === undefined ? undefined : staticProcedures.get(result.procedurePath);
    if (isGet && result.status === 200 && result.error === undefined && result.json !== undefined && protect !== undefined) {
      return staticResult(staticResponses.remember(input.target, result.json, protect), input.ifNoneMatch, result.headers);
    }
    return result;
  };
}

/** A repeated parameter is an array, as the handler reads it. */
type Query = Record<string, string | string[]>;

/**
 * The query parameters in a prototype-less object, handed to the handler as `req.query`: its own
 * parsing collects them in a plain object, where `constructor=1` or `toString=1` collide with
 * Object.prototype and throw.
 */
function queryOf(target: string): Query {
  const query: Query = Object.create(null) as Query;
  const at = target.indexOf("?");
  if (at < 0) return query;
  for (const [key, value] of new URLSearchParams(target.slice(at + 1))) {
    const previous = query[key];
    if (previous === undefined) query[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[key] = [previous, value];
  }
  return query;
}

/** Static responses carry an ETag and revalidate cheaply: `If-None-Match` answers 304. */
function staticResult(entry: { json: string; etag: string }, ifNoneMatch: string | undefined, extra: Record<string, string> = {}): RestResult {
  const headers = { ...extra, ETag: entry.etag, "Cache-Control": "private, no-cache" };
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === entry.etag)) {
    return { status: 304, headers };
  }
  return { status: 200, headers, json: entry.json };
}
