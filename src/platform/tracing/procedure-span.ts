import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { inSpan, tracingEnabled } from "./tracer.js";

/**
 * A tRPC middleware run inside the procedure's span (`orders.place`, kind INTERNAL), so one base
 * middleware stays one middleware (tRPC copies its options at each). tRPC hands failures back as
 * `{ ok: false }` rather than throwing; those mark the span as failed too.
 */
export function traceProcedure<O extends { path: string; type: string }, R extends { ok: boolean }>(middleware: (options: O) => Promise<R>) {
  return (options: O): Promise<R> => {
    if (!tracingEnabled()) return middleware(options);
    return inSpan(options.path, { kind: SpanKind.INTERNAL, attributes: { "rpc.system": "trpc", "rpc.method": options.path, "mf.procedure.type": options.type } }, async (span) => {
      const result = await middleware(options);
      if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    });
  };
}
