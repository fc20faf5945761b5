import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/** The route label of a request no route answered (never the raw path, which may carry ids). */
export const UNMATCHED_ROUTE = "unmatched";

const templates = new WeakMap<Context, string>();

/**
 * Names the template of the route that answers this request, when Hono's own route is a catch-all in front of a
 * router of its own (/api/*: the REST operations, `/api/orders/v1/{id}`), or UNMATCHED_ROUTE (the not-found handler).
 */
export function setRouteTemplate(c: Context, template: string): void {
  templates.set(c, template);
}

/**
 * The template of the route that answered, in OpenAPI's form (`/api/orders/v1/{id}`, `/links/{id}`): the one set
 * by setRouteTemplate, else the path of the Hono route whose handler ran last, `:name` written `{name}`. A request
 * only the `*` middleware saw is "unmatched" (the app's not-found handler sets that too: middleware such as
 * `/pages/*` may have matched without a handler). Read after the response exists.
 */
export function routeTemplate(c: Context): string {
  const set = templates.get(c);
  if (set !== undefined) return set;
  const route = matchedRoutes(c)[c.req.routeIndex];
  if (!route || route.path === "*" || route.path === "/*") return UNMATCHED_ROUTE;
  return route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

