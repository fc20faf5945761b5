import type { MiddlewareHandler } from "hono";
import { Counter, Histogram } from "prom-client";
import { routeTemplate } from "../http/route-template.js";
import { metricsRegistry, secondsSince } from "./registry.js";

const LABELS = ["method", "route", "status"] as const;

const requests = new Counter({
  name: "mf_http_requests_total",
  help: "HTTP requests answered, by method, route template and status code",
  labelNames: LABELS,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: "mf_http_request_duration_seconds",
  help: "Time from a request's arrival to its response (headers ready), by method, route template and status code",
  labelNames: LABELS,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/** Methods as their own label value; anything else (Node accepts a few dozen) is OTHER, so the label set stays small. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts and times every request, labelled with the route's template (route-template.ts), never the raw path.
 * Mounted first, so it sees the final status of every answer (errors and not-found included).
 */
export function httpMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const labels = { method: METHODS.has(c.req.method) ? c.req.method : "OTHER", route: routeTemplate(c), status: String(c.res.status) };
    requests.inc(labels);
    duration.observe(labels, secondsSince(started));
  };
}
