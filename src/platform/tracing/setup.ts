import { setTracingEnabled } from "./tracer.js";
import type { TracingSettings } from "./settings.js";

export interface Tracing {
  enabled: boolean;
  /** Sends the spans still batched. */
  flush(): Promise<void>;
  /** Flushes, then unregisters the SDK (the API falls back to its no-op tracer). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, flush: async () => {}, shutdown: async () => {} };

/**
 * Starts tracing when an OTLP endpoint is configured. Without one the SDK is never imported: the code's
 * spans go to @opentelemetry/api's no-op tracer, and inSpan (tracer.ts) skips even that.
 */
export async function startTracing(settings: TracingSettings): Promise<Tracing> {
  if (!settings.tracesUrl) return OFF;
  const { installSdk } = await import("./sdk.js");
  const sdk = installSdk(settings);
  setTracingEnabled(true);
  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    flush: () => sdk.flush(),
    shutdown: () => {
      setTracingEnabled(false);
      return (stopped ??= sdk.shutdown());
    },
  };
}
