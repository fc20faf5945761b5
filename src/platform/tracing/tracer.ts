import { maskFreeText } from "../lib/mask.js";
import { context, INVALID_SPAN_CONTEXT, SpanStatusCode, trace, type Attributes, type Context, type Span, type SpanKind, type Link } from "@opentelemetry/api";

/** The service's one tracer; a no-op (and free) until the SDK registers a provider (setup.ts). */
export const tracer = trace.getTracer("mf-distribution-service");

/** Whether spans are being recorded at all: the SDK is loaded (false without OTEL_EXPORTER_OTLP_ENDPOINT). */
let enabled = false;
export const tracingEnabled = (): boolean => enabled;
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export interface SpanOptions {
  kind: SpanKind;
  attributes?: Attributes;
  /** The parent (default: the active context). */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `work` inside an active span that ends with it: a thrown error is recorded and marks the span as
 * failed. With tracing off, `work` simply runs.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  if (!enabled) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  const { parent = context.active(), ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span as failed, with the error's name and its message, PANs masked (never the error's data or stack). */
export function failSpan(span: Span, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  span.recordException({ name: err.name, message: maskFreeText(err.message) });
  span.setStatus({ code: SpanStatusCode.ERROR, message: err.name });
}
