import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkerLiveness } from "../../src/platform/jobs/worker-liveness.js";
import { createLogger } from "../../src/platform/lib/logger.js";
import { syncOrdersWithExchange } from "../../src/domains/orders/jobs/sync-exchange.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logs.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, eventNames, orderingInvestor } from "../helpers/orders.js";

/**
 * What is left behind when a worker process dies in the middle of a dispatch (kill -9): the job still
 * locked by its pool, and possibly the order booked at the exchange but still PENDING here.
 * (The whole story, with a real process killed, is test/startup/crash-recovery.test.ts.)
 */

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
let pool: pg.Pool;
const holders: pg.Client[] = [];

beforeAll(async () => {
  await createOpenScheme(app, "940001");
  ctx = await orderingInvestor(app);
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 });
  // Sessions this file ends on purpose (and the database's drop at the end) must not surface as unhandled errors.
  pool.on("error", () => {});
});

afterAll(async () => {
  for (const holder of holders) await holder.end();
  await pool?.end();
});

/** A logger whose JSON lines land in `lines`. */
/** The sessions of this test process's worker liveness connections (see WorkerLiveness). */
const livenessSessions = async () =>
  (await app.prisma.$queryRawUnsafe<Array<{ pid: number }>>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    `mf-worker ${process.pid}`,
  )).map((r) => r.pid);
/** Ends the liveness connections, as a database restart or a network cut would. */
const cutLiveness = async (lines: string[]) => {
  const before = lines.filter((l) => l.includes("worker liveness connection lost")).length;
  const sessions = await livenessSessions();
  expect(sessions).toHaveLength(1);
  await app.prisma.$queryRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1`, sessions[0]);
  await expect.poll(() => lines.filter((l) => l.includes("worker liveness connection lost")).length, { timeout: 5_000 }).toBe(before + 1);
};
const poolRow = (poolId: string) => app.prisma.$queryRawUnsafe<Array<{ pool_id: string }>>(`SELECT pool_id FROM worker_processes WHERE pool_id = $1`, poolId);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const place = async (remarks?: string) => {
  const res = await app.http("POST", "/api/orders/v1/", {
    token: ctx.token,
    json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "940001", amount: 1000, purchase_type: "FRESH", ...(remarks ? { remarks } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const row = (id: string) => app.prisma.order.findUniqueOrThrow({ where: { id } });
const sync = () => runTask(app, syncOrdersWithExchange, {});
const dispatchJob = async (orderId: string) =>
  (
    await app.prisma.$queryRawUnsafe<Array<{ id: string; locked_by: string | null; attempts: number; max_attempts: number }>>(
      `SELECT id::text, locked_by, attempts, max_attempts FROM graphile_worker.jobs WHERE key = $1`,
      `orders__dispatch:${orderId}`,
    )
  )[0];
/** The job as a worker that took it and then died leaves it. */
const lockJob = (orderId: string, poolId: string, lockedAgo = "1 minute", attempts = 1) =>
  app.prisma.$executeRawUnsafe(
    `UPDATE graphile_worker._private_jobs SET locked_by = $1, locked_at = now() - $2::interval, attempts = $3 WHERE key = $4`,
    poolId,
    lockedAgo,
    attempts,
    `orders__dispatch:${orderId}`,
  );
const deleteJob = (orderId: string) => app.prisma.$executeRawUnsafe(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, `orders__dispatch:${orderId}`);
const registerPool = (poolId: string, lockKey: number, heartbeatAgo: string) =>
  app.prisma.$executeRawUnsafe(
    `INSERT INTO worker_processes (pool_id, lock_key, pid, host, heartbeat_at) VALUES ($1, $2, 4242, 'test-host', now() - $3::interval)`,
    poolId,
    lockKey,
    heartbeatAgo,
  );
/** A live process: a session holding the pool's liveness lock. */
const holdLock = async (lockKey: number) => {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  client.on("error", () => {});
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1::bigint)", [lockKey]);
  holders.push(client);
};

describe("jobs held by a stopped worker process", () => {
  it("are released when the process's lock is free and its heartbeat stale; a live, a fresh and an unknown pool keep theirs", async () => {
    const [dead, slow, fresh, unknown] = [await place(), await place(), await place(), await place()];
    await registerPool("pool-dead", 9101, "1 minute");
    await registerPool("pool-slow", 9102, "1 minute");
    await holdLock(9102);
    await registerPool("pool-fresh", 9103, "1 second");
    await lockJob(dead, "pool-dead");
    await lockJob(slow, "pool-slow");
    await lockJob(fresh, "pool-fresh");
    await lockJob(unknown, "pool-never-registered");

    const liveness = new WorkerLiveness(app.databaseUrl, createLogger("silent"), { settleMs: 0 });
    await liveness.acquire();
    const released = await liveness.releaseStoppedPools(pool);

    expect(released).toEqual([{ poolId: "pool-dead", pid: 4242, host: "test-host", jobs: 1 }]);
    expect(await dispatchJob(dead)).toMatchObject({ locked_by: null, attempts: 1 });
    expect((await dispatchJob(slow))!.locked_by).toBe("pool-slow");
    expect((await dispatchJob(fresh))!.locked_by).toBe("pool-fresh");
    expect((await dispatchJob(unknown))!.locked_by).toBe("pool-never-registered");
    const pools = await app.prisma.$queryRawUnsafe<Array<{ pool_id: string }>>(`SELECT pool_id FROM worker_processes ORDER BY pool_id`);
    expect(pools.map((p) => p.pool_id)).toEqual(["pool-fresh", "pool-slow"]);
    // A second pass (another process at the same time, or the next interval) finds nothing more to do.
    expect(await liveness.releaseStoppedPools(pool)).toEqual([]);
    await liveness.close();
  });

  it("a registered worker holds its lock and beats; after a clean stop its row is gone", async () => {
    const liveness = new WorkerLiveness(app.databaseUrl, createLogger("silent"));
    await liveness.acquire();
    await liveness.register("pool-me");
    await app.prisma.$executeRawUnsafe(`UPDATE worker_processes SET heartbeat_at = now() - interval '1 hour' WHERE pool_id = 'pool-me'`);
    // Another process looking: the heartbeat is stale, but the lock says it is alive.
    const other = new WorkerLiveness(app.databaseUrl, createLogger("silent"), { settleMs: 0 });
    await other.acquire();
    expect(await other.releaseStoppedPools(pool)).toEqual([]);
    await other.close();
    await liveness.heartbeat();
    const [beat] = await app.prisma.$queryRawUnsafe<Array<{ fresh: boolean }>>(
      `SELECT heartbeat_at > now() - interval '5 seconds' AS fresh FROM worker_processes WHERE pool_id = 'pool-me'`,
    );
    expect(beat!.fresh).toBe(true);
    await liveness.close();
    expect(await app.prisma.$queryRawUnsafe(`SELECT pool_id FROM worker_processes WHERE pool_id = 'pool-me'`)).toEqual([]);
  });
});

describe("the liveness connection lost and restored", () => {
  it("a heartbeat reconnecting while the worker stops: the stop waits for it, no connection and no row are left", async () => {
    const { lines, logger } = capturingLogger();
    const liveness = new WorkerLiveness(app.databaseUrl, logger);
    await liveness.acquire();
    await liveness.register("pool-stopping");
    await cutLiveness(lines);
    // Meanwhile another process took this one for stopped (its row is gone).
    await app.prisma.$executeRawUnsafe(`DELETE FROM worker_processes WHERE pool_id = 'pool-stopping'`);

    const beat = liveness.heartbeat(); // reconnecting: past the `closed` check when the stop comes
    await liveness.close();
    expect(await livenessSessions()).toEqual([]);
    expect(await poolRow("pool-stopping")).toEqual([]);
    await beat;
    await sleep(200);
    expect(await livenessSessions()).toEqual([]);
    expect(await poolRow("pool-stopping")).toEqual([]);
  });

  it("a tick while a heartbeat is still reconnecting is skipped: one connection, no error", async () => {
    const { lines, logger } = capturingLogger();
    const liveness = new WorkerLiveness(app.databaseUrl, logger);
    await liveness.acquire();
    await liveness.register("pool-slow-beat");
    await cutLiveness(lines);
    await Promise.all([liveness.heartbeat(), liveness.heartbeat(), liveness.heartbeat()]);
    expect(await livenessSessions()).toHaveLength(1);
    expect(lines.filter((l) => l.includes("worker liveness connection restored"))).toHaveLength(1);
    await liveness.close();
    expect(await livenessSessions()).toEqual([]);
  });

  it("a process judges other pools only once its own liveness connection has been up for one stale period", async () => {
    const { lines, logger } = capturingLogger();
    const [first, second] = [await place(), await place()];
    // Pools whose lock is free and heartbeat stale: after a long outage, live ones look like this too.
    await registerPool("pool-after-outage-1", 9201, "1 minute");
    await lockJob(first, "pool-after-outage-1");
    const liveness = new WorkerLiveness(app.databaseUrl, logger, { settleMs: 1_000 });
    expect(await liveness.releaseStoppedPools(pool)).toEqual([]); // no connection of its own yet
    await liveness.acquire();
    await liveness.register("pool-judge");
    expect(await liveness.releaseStoppedPools(pool)).toEqual([]);
    expect((await dispatchJob(first))!.locked_by).toBe("pool-after-outage-1");
    await sleep(1_100);
    expect((await liveness.releaseStoppedPools(pool)).map((p) => p.poolId)).toEqual(["pool-after-outage-1"]);

    // Its own connection lost, then back: again nobody is judged for one period.
    await registerPool("pool-after-outage-2", 9202, "1 minute");
    await lockJob(second, "pool-after-outage-2");
    await cutLiveness(lines);
    expect(await liveness.releaseStoppedPools(pool)).toEqual([]);
    await liveness.heartbeat();
    expect(await livenessSessions()).toHaveLength(1);
    expect(await liveness.releaseStoppedPools(pool)).toEqual([]);
    expect((await dispatchJob(second))!.locked_by).toBe("pool-after-outage-2");
    await sleep(1_100);
    expect((await liveness.releaseStoppedPools(pool)).map((p) => p.poolId)).toEqual(["pool-after-outage-2"]);
    await liveness.close();
  });
});

describe("status sync: PENDING orders with no exchange number whose dispatch is not under way", () => {
  it("booked at the exchange, dispatch job gone: the exchange's answer is applied once, with its number and one event", async () => {
    const id = await place();
    await app.services.exchange.placeOrder({
      orderId: id, clientCode: "X", orderType: "LUMPSUM_PURCHASE", schemeCode: "940001", toSchemeCode: null, purchaseType: "FRESH",
      amount: "1000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: false, remarks: null, holdingMode: null, subBrokerArn: null, payoutAccountNumber: null,
    });
    await deleteJob(id);
    await sync();
    await sync();
    expect(await row(id)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: `SBX${id.slice(-12).toUpperCase()}`, providerRemark: "ORDER CONFIRMED" });
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "ORDER", reference: id } })).toBe(1);
  });

  it("booked and held at the exchange, dispatch stuck for over 5 minutes: takes the number and stays PENDING for the regular sync", async () => {
    const id = await place("SIM:HOLD");
    await app.services.sandboxExchange!.placeOrder({
      orderId: id, clientCode: "X", orderType: "LUMPSUM_PURCHASE", schemeCode: "940001", toSchemeCode: null, purchaseType: "FRESH",
      amount: "1000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: false, remarks: "SIM:HOLD", holdingMode: null, subBrokerArn: null, payoutAccountNumber: null,
    });
    await lockJob(id, "pool-hung", "6 minutes");
    await sync();
    expect(await row(id)).toMatchObject({ status: "PENDING", exchangeOrderNumber: `SBX${id.slice(-12).toUpperCase()}` });
    expect(await eventNames(app, id)).toEqual([]);
  });

  it("not at the exchange and no dispatch job: dispatch is queued again", async () => {
    const id = await place();
    await deleteJob(id);
    await sync();
    expect(await dispatchJob(id)).toMatchObject({ locked_by: null, attempts: 0, max_attempts: 5 });
    expect((await row(id)).status).toBe("PENDING");
  });

  it("not at the exchange and the dispatch attempts used up (the last one killed): FAILED with order.failed", async () => {
    const id = await place();
    await lockJob(id, "pool-gone", "1 minute", 5);
    await app.prisma.$executeRawUnsafe(`SELECT graphile_worker.force_unlock_workers(ARRAY['pool-gone'])`);
    await sync();
    expect(await row(id)).toMatchObject({ status: "FAILED", failureCode: "exchange_unreachable" });
    expect(await eventNames(app, id)).toEqual(["order.failed"]);
  });

  it("leaves alone an order whose dispatch is waiting or running (recently locked), booked or not", async () => {
    const waiting = await place();
    const running = await place();
    const runningBooked = await place();
    await lockJob(running, "pool-busy", "10 seconds");
    await lockJob(runningBooked, "pool-busy", "10 seconds");
    await app.services.exchange.placeOrder({
      orderId: runningBooked, clientCode: "X", orderType: "LUMPSUM_PURCHASE", schemeCode: "940001", toSchemeCode: null, purchaseType: "FRESH",
      amount: "1000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: false, remarks: null, holdingMode: null, subBrokerArn: null, payoutAccountNumber: null,
    });
    await sync();
    for (const id of [waiting, running, runningBooked]) {
      expect(await row(id)).toMatchObject({ status: "PENDING", exchangeOrderNumber: null });
      expect(await eventNames(app, id)).toEqual([]);
    }
    expect((await dispatchJob(running))!.locked_by).toBe("pool-busy");
  });
});

describe("status sync when the recovery's lookup fails", () => {
  it("logs one short line and still applies the exchange's answers for the orders it has", async () => {
    const booked = await place();
    await app.services.exchange.placeOrder({
      orderId: booked, clientCode: "X", orderType: "LUMPSUM_PURCHASE", schemeCode: "940001", toSchemeCode: null, purchaseType: "FRESH",
      amount: "1000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: false, remarks: null, holdingMode: null, subBrokerArn: null, payoutAccountNumber: null,
    });
    // Dispatched (the exchange's number stored) but its answer not applied yet: the ordinary sync's business.
    await deleteJob(booked);
    const number = `SBX${booked.slice(-12).toUpperCase()}`;
    await app.prisma.order.update({ where: { id: booked }, data: { exchangeOrderNumber: number } });
    // Recovery's candidate: no dispatch job, no number.
    const undispatched = await place();
    await deleteJob(undispatched);
    const exchange = app.services.exchange;
    const failingLookup: typeof exchange = Object.assign(Object.create(exchange) as typeof exchange, {
      orderStatus: async (ids: string[]) => {
        if (ids.includes(undispatched)) throw new Error("exchange status lookup timed out\nwith details on a second line");
        return exchange.orderStatus(ids);
      },
    });
    const { lines, logger } = capturingLogger();

    await syncOrdersWithExchange({}, { services: { ...app.services, exchange: failingLookup }, log: logger, job: { attempts: 1, max_attempts: 5 } as never });

    expect(await row(booked)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: number });
    expect(await eventNames(app, booked)).toEqual(["order.accepted"]);
    expect(await row(undispatched)).toMatchObject({ status: "PENDING", exchangeOrderNumber: null });
    const warnings = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40);
    expect(warnings).toEqual([
      { level: 40, time: expect.any(String), msg: "recovering undispatched orders failed; the status sync goes on", error: { message: "exchange status lookup timed out" } },
    ]);
  });
});

describe("a worker stop with a job that does not finish", () => {
  it("fails the job at the stop deadline, so it runs again, and ends the worker's registration", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    let entered = false;
    const hanging = { ...app.services, exchange: { ...app.services.exchange, placeOrder: () => ((entered = true), new Promise<never>(() => {})) } };
    const worker = await startWorker(hanging, app.databaseUrl, { stopGraceMs: 1_000 });
    const id = await place();
    await expect.poll(() => entered, { timeout: 10_000 }).toBe(true);

    const startedAt = Date.now();
    await worker.stop();
    expect(Date.now() - startedAt).toBeLessThan(4_000);
    const job = await app.prisma.$queryRawUnsafe<Array<{ locked_by: string | null; attempts: number; last_error: string | null }>>(
      `SELECT locked_by, attempts, last_error FROM graphile_worker.jobs WHERE key = $1`,
      `orders__dispatch:${id}`,
    );
    expect(job).toEqual([{ locked_by: null, attempts: 1, last_error: expect.any(String) }]);
    expect((await row(id)).status).toBe("PENDING");
    expect(await app.prisma.$queryRawUnsafe(`SELECT pool_id FROM worker_processes WHERE pid = $1`, process.pid)).toEqual([]);
  });
});
