import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { z } from "zod";
import { createContext, type Context, type Services } from "../trpc/context.js";

/** What the HTTP layer knows about one request before it reaches a procedure. */
export interface RestRequest {
  request: Request;
  requestId: string;
  authorization: string | undefined;
  /** The parsed JSON (or converted form) body; undefined for GET and DELETE. */
  body: Record<string, unknown> | undefined;
}

export interface RestResult {
  status: number;
  headers: Headers;
  /** The success body as JSON text, or the error to render. */
  json?: string;
  error?: unknown;
}

const STATE = Symbol("rest-state");
interface RequestState {
  requestId: string;
  authorization: string | undefined;
  error?: unknown;
}

/** An object schema with no fields: nothing for the handler to coerce, every key kept. */
const PASS_THROUGH = z.looseObject({});

type Procedures = Record<string, { _def: { meta?: { openapi?: { method?: string } }; inputs: unknown[] } }>;

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
      const method = procedure._def.meta?.openapi?.method;
      const takesBody = method === "POST" || method === "PUT" || method === "PATCH";
      return [path, takesBody ? { ...procedure, _def: { ...procedure._def, inputs: [PASS_THROUGH] } } : procedure];
    }),
  );
  return { ...appRouter, _def: { ...appRouter._def, procedures: routed } } as AnyRouter;
}

/**
 * REST requests go through trpc-to-openapi's OpenAPI handler (the core its fetch adapter wraps),
 * built once: the fetch adapter rebuilds it, with a full document check, on every request.
 */
export function createRestHandler(appRouter: AnyRouter, services: Services) {
  const handler = createOpenApiNodeHttpHandler({
    router: routingView(appRouter),
    createContext: ({ req }: { req: unknown }) => {
      const state = (req as { [STATE]: RequestState })[STATE];
      return createContext(services, state);
    },
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) =>
      errors.length === 0 && ctx ? { status: ctx.response.status ?? 200, headers: ctx.response.headers } : {},
    onError: ({ error, req }: { error: unknown; req: unknown }) => {
      (req as { [STATE]: RequestState })[STATE].error = error;
    },
  } as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  return (input: RestRequest): Promise<RestResult> => {
    const state: RequestState = { requestId: input.requestId, authorization: input.authorization };
    // The handler reads a Request; present the already-parsed body as JSON.
    const headers = new Headers(input.request.headers);
    if (input.body !== undefined) headers.set("content-type", "application/json");
    const extras: Record<PropertyKey, unknown> = {};
    const request = new Proxy(input.request, {
      get(target, prop) {
        if (prop === STATE) return state;
        if (prop === "body") return input.body;
        if (prop === "headers") return headers;
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
      const responseHeaders = new Headers();
      let status = 200;
      const response = {
        setHeader: (key: string, value: string | string[]) => {
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
        },
        get statusCode() {
          return status;
        },
        set statusCode(code: number) {
          status = code;
        },
        end: (json?: string) => resolve({ status, headers: responseHeaders, json, error: state.error }),
      };
      void (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(request, response);
    });
  };
}
