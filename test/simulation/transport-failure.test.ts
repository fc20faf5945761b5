import { beforeAll, describe, expect, it } from "vitest";
import { ExchangeUnavailableError, type ExchangePort } from "../../src/integrations/exchange/port.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, eventNames, orderingInvestor } from "../helpers/orders.js";

const app = useTestApp({ LOG_LEVEL: "info" });
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "950001");
  ctx = await orderingInvestor(app);
});

describe("SIM:FAIL in the sandbox, with the real worker", () => {
  it("retries on the sandbox's short schedule and ends FAILED (exchange_unreachable) with one order.failed within 10 s", async () => {
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "950001", amount: 1000, purchase_type: "FRESH", remarks: "SIM:FAIL" },
    });
    expect(placed.status).toBe(201);
    const id = placed.body.id as string;
    const started = Date.now();
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect
        .poll(async () => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body.status, { timeout: 10_000, interval: 100 })
        .toBe("FAILED");
    } finally {
      await worker.stop();
    }
    const elapsed = Date.now() - started;
    expect(await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token }).then((r) => r.body)).toMatchObject({
      status: "FAILED",
      failure_code: "exchange_unreachable",
      provider_remark: "SANDBOX: SIMULATED TRANSPORT FAILURE",
    });
    expect(await eventNames(app, id)).toEqual(["order.failed"]);
    // Five tries in all: four short retries (each after the 500 ms the sandbox asks for), then FAILED.
    const retries = app.logs.filter((line) => line.includes(id) && line.includes("order dispatch retries shortly"));
    expect(retries).toHaveLength(4);
    expect(app.logs.filter((line) => line.includes(id) && line.includes("order dispatch failed for good"))).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(10_000);
    // No dispatch job is left behind.
    const jobs = await app.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'orders__dispatch' AND j.payload->>'order_id' = $1`,
      id,
    );
    expect(jobs).toEqual([]);
  }, 20_000);

  it("an exchange that asks for no short retry gets graphile-worker's usual backoff: the job throws", async () => {
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "950001", amount: 1000, purchase_type: "FRESH" },
    });
    const sandbox = app.services.sandboxExchange!;
    const down: ExchangePort = Object.assign(Object.create(Object.getPrototypeOf(sandbox)), sandbox, {
      placeOrder: async () => {
        throw new ExchangeUnavailableError("CONNECTION RESET");
      },
    });
    await expect(runTask(app, dispatchOrder, { order_id: placed.body.id }, { services: { ...app.services, exchange: down } })).rejects.toThrow("CONNECTION RESET");
    expect((await app.http("GET", `/api/orders/v1/${placed.body.id}`, { token: ctx.token })).body.status).toBe("PENDING");
    const jobs = await app.prisma.$queryRawUnsafe<Array<{ max_attempts: number }>>(
      `SELECT j.max_attempts FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'orders__dispatch' AND j.payload->>'order_id' = $1`,
      placed.body.id,
    );
    expect(jobs).toEqual([{ max_attempts: 5 }]);
  });
});
