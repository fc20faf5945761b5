import { createRequire } from "node:module";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { loggingErrorHandler, setGlobalErrorHandler, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { TracingSettings } from "./settings.js";

const EXPORT_TIMEOUT_MS = 3_000;

/**
 * The OpenTelemetry SDK, loaded only when tracing is on (setup.ts imports this module dynamically): the
 * provider with a batch processor sending OTLP/HTTP (JSON), the async-hooks context manager, the W3C
 * propagator, and pg's instrumentation.
 */
export function installSdk(settings: TracingSettings): { flush(): Promise<void>; shutdown(): Promise<void> } {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      "mf.role": settings.role,
    }),
    // Every trace is recorded, whatever an incoming traceparent's sampled flag says: a caller cannot hide its
    // requests from the traces (sampling, if wanted, belongs to the collector).
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler(), remoteParentNotSampled: new AlwaysOnSampler() }),
    // Short timeouts: a collector that does not answer must not hold a stop past the service's 10 s.
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.tracesUrl, timeoutMillis: EXPORT_TIMEOUT_MS }), exportTimeoutMillis: EXPORT_TIMEOUT_MS })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const unpatchPg = patchPg(provider);
  setGlobalErrorHandler(exportFailureReporter(settings.onExportFailure));
  return {
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      unpatchPg();
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        context.disable();
        setGlobalErrorHandler(loggingErrorHandler());
      }
    },
  };
}

/**
 * pg is CommonJS and reaches us through ESM imports (@prisma/adapter-pg, graphile-worker, our own), which
 * require-in-the-middle does not see, and it may be loaded before this runs: so the instrumentation patches
 * the one loaded copy of `pg` and `pg-pool` directly (their classes' prototypes, shared by every client
 * already made). Queries outside any span (graphile-worker's polling) make no span of their own.
 */
function patchPg(provider: TracerProvider): () => void {
  const instrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true });
  instrumentation.setTracerProvider(provider);
  const requireFromHere = createRequire(import.meta.url);
  const pgPath = requireFromHere.resolve("pg");
  const requireFromPg = createRequire(pgPath);
  const modules = new Map<string, unknown>([
    ["pg", requireFromHere("pg")],
    ["pg-pool", requireFromPg("pg-pool")],
  ]);
  const definitions = instrumentation.getModuleDefinitions().filter((d) => modules.has(d.name));
  if (definitions.length !== 2) throw new Error("pg's instrumentation no longer defines the pg and pg-pool patches");
  for (const definition of definitions) definition.patch?.(modules.get(definition.name));
  return () => {
    for (const definition of definitions) definition.unpatch?.(modules.get(definition.name));
  };
}

const REPORT_EVERY_MS = 60_000;

/**
 * The SDK hands a failed export to its global error handler; the operator hears of it once a minute at
 * most, in a fixed sentence (the exporter's own text may quote the collector's answer).
 */
function exportFailureReporter(report: ((message: string) => void) | undefined): (error: unknown) => void {
  let last = 0;
  let missed = 0;
  return () => {
    missed += 1;
    if (!report || Date.now() - last < REPORT_EVERY_MS) return;
    report(`spans could not be sent to the OTLP endpoint (${missed} failure${missed === 1 ? "" : "s"} since the last report)`);
    last = Date.now();
    missed = 0;
  };
}
