import { SpanKind } from "@opentelemetry/api";
import { contextOf, takeTraceparent } from "./trace-context.js";
import { inSpan, tracingEnabled } from "./tracer.js";

/**
 * A graphile-worker task run inside its span (`job <task>`, kind CONSUMER) whose parent is the trace context
 * the job's payload carries (`traceparent`, added where it was enqueued), so a request's trace goes on into
 * the jobs it queued. The task always gets its payload without `traceparent`, traced or not.
 */
export function traceTask<H extends { job: { id: string; attempts: number } }>(task: string, run: (payload: unknown, helpers: H) => Promise<void>) {
  return async (payload: unknown, helpers: H): Promise<void> => {
    const own = takeTraceparent(payload);
    if (!tracingEnabled()) return run(own.payload, helpers);
    const attributes = {
      "messaging.system": "graphile-worker",
      "messaging.operation.type": "process",
      "messaging.destination.name": task,
      "messaging.message.id": String(helpers.job.id),
      "mf.job.attempt": helpers.job.attempts,
    };
    return inSpan(`job ${task}`, { kind: SpanKind.CONSUMER, attributes, parent: contextOf(own.traceparent) }, () => run(own.payload, helpers));
  };
}
