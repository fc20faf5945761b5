import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * The process's one metrics registry: every metric of the service registers here, with Node's default process
 * metrics (CPU, memory, event loop lag, GC, handles). Each process (API, worker, or both in one) exposes its own;
 * Prometheus adds them up across processes.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** The registry in Prometheus' text exposition format (version 0.0.4), as a scrape receives it. */
export async function exposition(): Promise<{ body: string; contentType: string }> {
  return { body: await metricsRegistry.metrics(), contentType: metricsRegistry.contentType };
}

/** Seconds elapsed since `started` (a `performance.now()` reading), for the duration histograms. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
