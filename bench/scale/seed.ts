/**
 * One generation (bench:seed-scale's, and bench:scale's almost empty side's): the distributors, then every
 * table through COPY with its indexes dropped, the indexes and keys rebuilt, and VACUUM ANALYZE: the state
 * autovacuum keeps a database years old in (hint bits set, the visibility map current, so index-only scans read
 * no table page), which a database just filled by COPY is not. Returns the times.
 */
import type pg from "pg";
import type { Services } from "../../src/domains/shared/services.js";
import { dropIndexes, rebuildIndexes, type Progress } from "./copy.js";
import { copyEvents } from "./events.js";
import { planOrders, type OrderPlan } from "./order-shapes.js";
import { copyInstallments, copyOrders, copyPayments } from "./orders.js";
import { copyInvestors, createDistributors } from "./people.js";
import { copyPositions } from "./positions.js";
import { SEEDED_TABLES } from "./scale-options.js";
import type { Scale } from "./shapes.js";
import { copyDeliveries, copySubscriptions } from "./webhooks.js";

export interface Seeded {
  plan: OrderPlan;
  copyMs: number;
  indexMs: number;
}

export async function seed(client: pg.Client, services: Services, scale: Scale, progress: Progress, onPlan: (plan: OrderPlan) => void = () => {}): Promise<Seeded> {
  const started = performance.now();
  const now = Date.now();
  const distributors = await createDistributors(services);
  const plan = planOrders(scale, now);
  onPlan(plan);
  const dropped = await dropIndexes(client, SEEDED_TABLES);
  await copyInvestors(client, services, distributors, scale, now, progress);
  await copyOrders(client, distributors, plan, scale, now, progress);
  await copyInstallments(client, plan, scale, now, progress);
  await copyPayments(client, distributors, plan, scale, now, progress);
  await copyEvents(client, distributors, plan, scale, now, progress);
  await copySubscriptions(client, services, distributors, progress);
  await copyDeliveries(client, distributors, plan, scale, now, progress);
  await copyPositions(client, services, distributors, scale, progress);
  const loaded = performance.now();
  await rebuildIndexes(client, dropped);
  const indexed = performance.now();
  await client.query("VACUUM (ANALYZE)");
  return { plan, copyMs: loaded - started, indexMs: indexed - loaded };
}
