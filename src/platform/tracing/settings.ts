/** What tracing needs from the configuration (src/env.ts reads the OTEL_* variables). */
export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP, JSON): `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`; undefined: tracing off. */
  tracesUrl: string | undefined;
  serviceName: string;
  /** Which process this is: api, worker, all (both) or cli. */
  role: string;
  /** Told (at most once a minute) when spans could not be sent: the collector is down, refuses them or is slow. */
  onExportFailure?: (message: string) => void;
}
