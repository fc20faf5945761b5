import { describe, expect, it } from "vitest";
import { sampleGaugesFrom } from "../../src/domains/monitoring/gauges.js";
import { GAUGE_COUNTS_SQL, LIVE_ORDER_STATUSES } from "../../src/domains/monitoring/gauges.repo.js";
import { enqueue } from "../../src/domains/shared/jobs/enqueue.js";
import type { Db } from "../../src/platform/db/client.js";
import { Sampler } from "../../src/platform/metrics/sampler.js";
import { useTestApp } from "../helpers/app.js";
import { METRICS_TOKEN, parseExposition, scrape, valueOf } from "../helpers/metrics.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, orderingInvestor, placedOrder } from "../helpers/orders.js";

const app = useTestApp({ MF_METRICS_TOKEN: METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });

/** The database, its raw queries counted (a sample is two: gauges.repo.ts's and the reconciliation's); `failing` makes them fail. */
function countedDb() {
  const state = { queries: 0, failing: false };
  const db = new Proxy(app.prisma, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "$queryRawUnsafe" && property !== "$queryRaw") return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return (...args: unknown[]) => {
        state.queries++;
        if (state.failing) return Promise.reject(new Error("connection refused"));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Db;
  return { db, state };
}

const count = async (sql: string, ...params: unknown[]) => Number((await app.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(sql, ...params))[0]!.n);
const waitingJobs = (task: string) =>
  count(
    `SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = $1 AND j.locked_at IS NULL AND j.attempts < j.max_attempts AND j.run_at <= now()`,
    task,
  );
const gauges = (text: string) => ({
  pending: valueOf(text, "mf_orders", { status: "PENDING" }),
  accepted: valueOf(text, "mf_orders", { status: "ACCEPTED" }),
  stuck: valueOf(text, "mf_orders_stuck_pending"),
  parked: valueOf(text, "mf_webhook_deliveries_parked"),
  dispatchQueue: valueOf(text, "mf_job_queue_depth", { task: "orders__dispatch" }),
  purgeQueue: valueOf(text, "mf_job_queue_depth", { task: "idempotency__purge_expired" }),
  mismatches: Object.fromEntries(
    parseExposition(text).filter((sample) => sample.name === "mf_reconciliation_mismatches").map((sample) => [sample.labels.kind, sample.value]),
  ),
});
const NO_MISMATCH = { MISSING_HERE: 0, MISSING_AT_EXCHANGE: 0, STATUS: 0, AMOUNT: 0, UNITS: 0, ALLOTMENT_MISSED: 0 };
/** A completed reconciliation of `date` with its mismatches (kind, fixed). */
async function reconciliation(date: string, mismatches: Array<[string, boolean]>) {
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO reconciliation_runs (id, date, status, started_at, finished_at) VALUES ($1, $2::date, 'COMPLETED', now(), now())`,
    `rec_${date}`, date,
  );
  for (const [i, [kind, fixed]] of mismatches.entries()) {
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO reconciliation_mismatches (id, run_id, date, key, kind, fixed) VALUES ($1, $2, $3::date, $4, $5, $6)`,
      `mis_${date}_${i}`, `rec_${date}`, date, `key-${i}`, kind, fixed,
    );
  }
}

describe("the sampled gauges", () => {
  it("come from one sample (two grouped queries) at most every 15 s, taken lazily on a scrape and shared by concurrent scrapes", async () => {
    await createOpenScheme(app, "932001");
    const ctx = await orderingInvestor(app);
    await acceptedOrder(app, ctx, lumpsumOrder("932001", { amount: 1000 }));
    let now = 1_000_000;
    const { db, state } = countedDb();
    sampleGaugesFrom(db, app.services.logger, { now: () => now });
    expect(state.queries).toBe(0);

    const first = gauges(await scrape(app));
    expect(state.queries).toBe(2);
    expect(first).toEqual({
      pending: await count("SELECT count(*) AS n FROM orders WHERE status = 'PENDING'"),
      accepted: await count("SELECT count(*) AS n FROM orders WHERE status = 'ACCEPTED'"),
      stuck: 0, parked: 0, dispatchQueue: await waitingJobs("orders__dispatch"), purgeQueue: 0, mismatches: NO_MISMATCH,
    });
    expect(first.accepted).toBeGreaterThanOrEqual(1);

    // A PENDING order with its dispatch job waiting (no worker runs here), a job of another task, a parked delivery.
    const subscribed = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: ctx.token, json: { url: "https://localhost:8443/hooks", events: ["order.accepted"] } });
    expect(subscribed.status).toBe(201);
    await acceptedOrder(app, ctx, lumpsumOrder("932001", { amount: 1000 }));
    await app.prisma.webhookDelivery.updateMany({ where: { subscriptionId: subscribed.body.data.id }, data: { status: "PARKED", nextAttemptAt: null } });
    const pendingId = await placedOrder(app, ctx, lumpsumOrder("932001", { amount: 1000 }));
    await enqueue(app.prisma, "idempotency__purge_expired", {}, { jobKey: "gauges-test" });
    // An older reconciliation's mismatches no longer count; the latest one's open ones do.
    await reconciliation("2026-11-02", [["UNITS", false]]);
    await reconciliation("2026-11-03", [["STATUS", false], ["AMOUNT", false], ["AMOUNT", false], ["ALLOTMENT_MISSED", true]]);

    now += 14_999;
    const within = await Promise.all([scrape(app), scrape(app), scrape(app)]);
    expect(state.queries).toBe(2);
    for (const text of within) expect(gauges(text)).toEqual(first);

    now += 1;
    const fresh = await Promise.all([scrape(app), scrape(app), scrape(app)]);
    expect(state.queries).toBe(4);
    for (const text of fresh) {
      // The helpers run the dispatch handler directly: the two orders' dispatch jobs still wait in the queue.
      expect(gauges(text)).toEqual({
        ...first, pending: first.pending + 1, accepted: first.accepted + 1, parked: 1, dispatchQueue: first.dispatchQueue + 2, purgeQueue: 1,
        mismatches: { ...NO_MISMATCH, STATUS: 1, AMOUNT: 2 },
      });
    }

    // PENDING for more than 15 minutes: stuck.
    await app.prisma.order.update({ where: { id: pendingId }, data: { createdAt: new Date(Date.now() - 16 * 60_000) } });
    now += 15_000;
    expect(gauges(await scrape(app)).stuck).toBe(1);
    expect(state.queries).toBe(6);
  });

  it("keep the last sample when the database does not answer, and try again only after 15 s", async () => {
    let now = 5_000_000;
    const { db, state } = countedDb();
    sampleGaugesFrom(db, app.services.logger, { now: () => now });
    const good = gauges(await scrape(app));
    state.failing = true;
    now += 15_000;
    const res = await app.http("GET", "/metrics", { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(gauges(res.text)).toEqual(good);
    expect(app.logs.some((line) => line.includes("sampling the gauges failed; the last sample is kept") && line.includes("connection refused"))).toBe(true);
    // The failed sample stopped at its first query, and is not tried again within 15 s.
    await scrape(app);
    expect(state.queries).toBe(3);
    state.failing = false;
    now += 15_000;
    expect(gauges(await scrape(app))).toEqual(good);
    expect(state.queries).toBe(5);
    sampleGaugesFrom(app.prisma, app.services.logger);
  });

  it("read every table through an index (no sequential scan even when the planner is told to avoid them)", async () => {
    const plan = await app.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${GAUGE_COUNTS_SQL}`, [...LIVE_ORDER_STATUSES], 15);
    });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).not.toMatch(/Seq Scan on (orders|webhook_deliveries|_private_jobs)/);
    // An index scan, index-only or bitmap, of each (on a small table the planner may choose either).
    const indexScan = (index: string) => new RegExp(`(Index|Index Only|Bitmap Index) Scan (using|on) ${index}\\b`);
    expect(text).toMatch(indexScan("orders_status_exchange_order_number_idx"));
    expect(text).toMatch(indexScan("webhook_deliveries_parked_idx"));
    expect(text).toMatch(indexScan("jobs_main_index"));
  });
});

describe("the sampler", () => {
  it("shares one take among concurrent reads, serves it for 15 s, then takes another", async () => {
    let now = 0;
    let takes = 0;
    let release: () => void = () => {};
    const sampler = new Sampler(async () => {
      takes++;
      await new Promise<void>((resolve) => (release = resolve));
      return takes;
    }, { now: () => now });
    const reads = [sampler.get(), sampler.get(), sampler.get()];
    release();
    expect(await Promise.all(reads)).toEqual([1, 1, 1]);
    now = 14_999;
    expect(await sampler.get()).toBe(1);
    now = 15_000;
    const next = sampler.get();
    release();
    expect(await next).toBe(2);
    expect(takes).toBe(2);
  });
});
