import { Gauge } from "prom-client";
import type { Db } from "../../platform/db/client.js";
import { errorSummary, type Logger } from "../../platform/lib/logger.js";
import { metricsRegistry } from "../../platform/metrics/registry.js";
import { Sampler, type SamplerOptions } from "../../platform/metrics/sampler.js";
import { openMismatchesByKind } from "../reconciliations/reconciliations.service.js";
import type { MismatchKind } from "../reconciliations/reconciliation.states.js";
import { TASKS } from "../shared/jobs/catalog.js";
import { gaugeCounts, LIVE_ORDER_STATUSES, type GaugeCount } from "./gauges.repo.js";

/** An order still PENDING this long after it was placed is stuck (mf_orders_stuck_pending). */
export const STUCK_PENDING_MINUTES = 15;

/** What one sample reads: the counts of gauges.repo.ts, and the open mismatches of the latest reconciliation. */
interface Sample {
  counts: GaugeCount[];
  mismatches: Record<MismatchKind, number>;
}

let sampler: Sampler<Sample> | undefined;

/**
 * Samples the gauges from `db` from now on: lazily, when a scrape reads them, in two grouped queries (gauges.repo.ts,
 * and the reconciliation's open mismatches) at most every 15 s, however many scrapes and gauges read them. A
 * process has one database; the last call wins.
 */
export function sampleGaugesFrom(db: Db, logger: Logger, options: SamplerOptions = {}): void {
  const log = logger.child({ component: "metrics" });
  const take = async (): Promise<Sample> => ({ counts: await gaugeCounts(db, STUCK_PENDING_MINUTES), mismatches: await openMismatchesByKind(db) });
  sampler = new Sampler(take, {
    onError: (error) => log.warn({ error: errorSummary(error) }, "sampling the gauges failed; the last sample is kept"),
    ...options,
  });
}

/** Sets a gauge from the sample's counts of one kind: every known key first at 0, so a key that empties shows 0. */
async function setFromSample(gauge: Gauge<string>, kind: GaugeCount["kind"], label: string | null, known: readonly string[]): Promise<void> {
  const sample = await sampler?.get();
  gauge.reset();
  if (!sample) return;
  const mine = sample.counts.filter((c) => c.kind === kind);
  if (label === null) {
    gauge.set(mine.reduce((n, c) => n + c.count, 0));
    return;
  }
  for (const key of known) gauge.set({ [label]: key }, 0);
  for (const c of mine) gauge.set({ [label]: c.key }, c.count);
}

new Gauge({
  name: "mf_orders",
  help: "Orders not yet final, by status (PENDING, ACCEPTED), sampled at most every 15 s; final statuses are not counted (they only grow, and counting them would read the whole table)",
  labelNames: ["status"] as const,
  registers: [metricsRegistry],
  collect() {
    return setFromSample(this, "orders", "status", LIVE_ORDER_STATUSES);
  },
});

new Gauge({
  name: "mf_orders_stuck_pending",
  help: `Orders still PENDING ${STUCK_PENDING_MINUTES} minutes or more after they were placed, sampled at most every 15 s`,
  registers: [metricsRegistry],
  collect() {
    return setFromSample(this, "orders_stuck_pending", null, []);
  },
});

new Gauge({
  name: "mf_webhook_deliveries_parked",
  help: "Webhook deliveries PARKED (every attempt failed; they wait for a retry on request), sampled at most every 15 s",
  registers: [metricsRegistry],
  collect() {
    return setFromSample(this, "webhook_deliveries_parked", null, []);
  },
});

new Gauge({
  name: "mf_job_queue_depth",
  help: "Jobs waiting to run by task: due now and not taken by a worker (scheduled later, running or given up not counted), sampled at most every 15 s",
  labelNames: ["task"] as const,
  registers: [metricsRegistry],
  collect() {
    return setFromSample(this, "job_queue", "task", Object.keys(TASKS));
  },
});

new Gauge({
  name: "mf_reconciliation_mismatches",
  help: "Differences with the exchange still open (not fixed) in the latest completed reconciliation, by kind, sampled at most every 15 s",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
  async collect() {
    const sample = await sampler?.get();
    this.reset();
    for (const [kind, count] of Object.entries(sample?.mismatches ?? {})) this.set({ kind }, count);
  },
});
