import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logs.js";
import { createOpenScheme, eventNames, orderingInvestor } from "../helpers/orders.js";

/**
 * graphile-worker (0.17) shuts its worker pool down for good the first time it cannot record a job's
 * outcome ("Could not completeJobs/failJobs; queue is in an inconsistent state"), which is what happens
 * when a job ends while the database is away. The worker starts its runner again once the database lets
 * it, and the old pool's jobs run again at once. Here the database refuses connections (ALLOW_CONNECTIONS
 * false, its sessions ended) while a dispatch is at the exchange.
 */

const app = useTestApp();
let admin: pg.Client;
let database: string;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "950001");
  ctx = await orderingInvestor(app);
  const url = new URL(app.databaseUrl);
  database = url.pathname.slice(1);
  url.pathname = "/postgres";
  admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
});

afterAll(async () => {
  await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`).catch(() => {});
  await admin.end();
});

const jobs = () =>
  app.prisma.$queryRawUnsafe<Array<{ locked_by: string | null }>>(`SELECT locked_by FROM graphile_worker.jobs WHERE task_identifier = 'orders__dispatch'`);
const registrations = () => app.prisma.$queryRawUnsafe<Array<{ pool_id: string }>>(`SELECT pool_id FROM worker_processes WHERE pid = $1`, process.pid);

it("a runner whose pool died in a database outage is started again, and the order it was dispatching leaves PENDING once", async () => {
  const { lines, parsed, logger } = capturingLogger("info");
  let entered = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const exchange = app.services.exchange;
  const gated = {
    ...exchange,
    placeOrder: async (...args: Parameters<typeof exchange.placeOrder>) => {
      if (!entered) {
        entered = true;
        await gate;
      }
      return exchange.placeOrder(...args);
    },
  };
  const worker = await startWorker({ ...app.services, logger, exchange: gated }, app.databaseUrl);
  try {
    const [first] = await registrations();
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "950001", amount: 1000, purchase_type: "FRESH" },
    });
    expect(placed.status).toBe(201);
    await expect.poll(() => entered, { timeout: 10_000 }).toBe(true);

    // The outage: no session may connect, every session is ended; then the dispatch comes back from the exchange.
    await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [database]);
    release();
    await expect.poll(() => parsed().some((l) => String(l.msg).startsWith("the job runner stopped")), { timeout: 10_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a restart or two refused meanwhile
    await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);

    await expect.poll(() => parsed().some((l) => l.msg === "the job runner runs again"), { timeout: 40_000 }).toBe(true);
    await expect
      .poll(async () => (await app.prisma.order.findUniqueOrThrow({ where: { id: placed.body.id as string } })).status, { timeout: 30_000, interval: 250 })
      .toBe("ACCEPTED");
    expect(await eventNames(app, placed.body.id as string)).toEqual(["order.accepted"]);
    // One booking at the exchange, the new pool registered in the old one's place, nothing left held by the old pool.
    expect(await app.prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM sandbox_exchange_records WHERE kind = 'ORDER' AND reference = $1`, placed.body.id)).toEqual([{ n: 1 }]);
    const now = await registrations();
    expect(now).toHaveLength(1);
    expect(now[0]!.pool_id).not.toBe(first!.pool_id);
    expect((await jobs()).filter((j) => j.locked_by === first!.pool_id)).toEqual([]);
    // The stop is one line, the restart one line.
    expect(parsed().filter((l) => String(l.msg).startsWith("the job runner stopped"))).toHaveLength(1);
    expect(parsed().filter((l) => l.msg === "the job runner runs again")).toEqual([
      { level: 30, time: expect.any(String), component: "worker", msg: "the job runner runs again", attempts: expect.any(Number), down_ms: expect.any(Number) },
    ]);
  } finally {
    await worker.stop();
  }
  expect(await registrations()).toEqual([]);
  expect(lines.join("\n")).not.toContain("postgres://");
}, 90_000);
