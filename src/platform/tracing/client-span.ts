import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Link } from "@opentelemetry/api";
import { contextOf } from "./trace-context.js";
import { inSpan, tracingEnabled } from "./tracer.js";

/**
 * An outbound HTTP POST in a client span (`POST <what>`) with the target's host and the answer's status.
 * When `traceparent` is given (stored with the work when it was created, in another process perhaps) the span
 * continues that trace, linked to the span running now (the batch job sending it); otherwise it is a child
 * of the active span. Only the host is recorded: a receiver's path may carry its own secret.
 */
export function traceHttpPost<R extends { statusCode: number | null }>(
  what: string,
  target: { url: URL; traceparent?: string | null; attributes?: Attributes },
  send: () => Promise<R>,
): Promise<R> {
  if (!tracingEnabled()) return send();
  const running = trace.getSpan(context.active())?.spanContext();
  const links: Link[] = target.traceparent && running ? [{ context: running }] : [];
  const attributes = {
    "http.request.method": "POST",
    "server.address": target.url.hostname,
    "server.port": Number(target.url.port || (target.url.protocol === "https:" ? 443 : 80)),
    ...target.attributes,
  };
  const parent = target.traceparent ? contextOf(target.traceparent) : context.active();
  return inSpan(`POST ${what}`, { kind: SpanKind.CLIENT, attributes, parent, links }, async (span) => {
    const result = await send();
    if (result.statusCode === null) {
      span.setAttribute("error.type", "no_response");
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      span.setAttribute("http.response.status_code", result.statusCode);
      if (result.statusCode >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return result;
  });
}
