import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Context as HonoContext } from "hono";
import { routeTemplate } from "../http/route-template.js";
import { failSpan, tracingEnabled, tracer } from "./tracer.js";

const headerGetter = {
  keys: (carrier: HonoContext) => Object.keys(carrier.req.header()),
  get: (carrier: HonoContext, key: string) => carrier.req.header(key),
};

/**
 * Runs the rest of the request inside its server span, `METHOD <route template>`, continuing an incoming
 * `traceparent`. The template is the metrics' route label (routeTemplate: the REST operation's
 * `/api/orders/v1/{id}`, else Hono's route, `/healthz`, `/trpc/*`); never the raw path, whose ids would make
 * each request a name of its own.
 */
export async function traceRequest(c: HonoContext, requestId: string, next: () => Promise<void>): Promise<void> {
  if (!tracingEnabled()) return next();
  const method = c.req.method;
  const remote = propagation.extract(ROOT_CONTEXT, c, headerGetter);
  const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "mf.request_id": requestId } }, remote);
  try {
    await context.with(trace.setSpan(remote, span), next);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    const template = routeTemplate(c);
    const status = c.res.status;
    span.updateName(`${method} ${template}`);
    span.setAttributes({ "http.route": template, "http.response.status_code": status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}
