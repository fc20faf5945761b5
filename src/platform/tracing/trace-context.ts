import { context, propagation, ROOT_CONTEXT, trace, type Context } from "@opentelemetry/api";

/**
 * The W3C trace context as text, carried where a header cannot go (a job's payload, a delivery's row).
 * Only @opentelemetry/api here: with tracing off its propagator is a no-op, so nothing is written and
 * nothing is read.
 */
export const TRACEPARENT = "traceparent";

/** The active span's `traceparent`, or undefined when no span is recording (tracing off, or none active). */
export function currentTraceparent(): string | undefined {
  if (!trace.getSpan(context.active())?.isRecording()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier[TRACEPARENT];
}

/** The context whose remote parent is `traceparent` (the root context when absent or malformed). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent });
}

/** A job payload with the active trace context added (as is when no span is active). */
export function withTraceparent<P extends object>(payload: P): P & { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent ? { ...payload, traceparent } : payload;
}

/** A job payload split into its own fields and the trace context it carried. */
export function takeTraceparent(payload: unknown): { payload: unknown; traceparent: string | undefined } {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload) || !(TRACEPARENT in payload)) return { payload, traceparent: undefined };
  const { traceparent, ...own } = payload as Record<string, unknown>;
  return { payload: own, traceparent: typeof traceparent === "string" ? traceparent : undefined };
}
