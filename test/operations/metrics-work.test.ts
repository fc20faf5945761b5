import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue } from "../../src/domains/shared/jobs/enqueue.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { meteredExchange } from "../../src/integrations/exchange/metered-exchange.js";
import type { ExchangePort } from "../../src/integrations/exchange/port.js";
import { SandboxExchange } from "../../src/integrations/exchange/sandbox/sandbox-exchange.js";
import { meteredTask } from "../../src/platform/metrics/job-metrics.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { grew, METRICS_TOKEN, scrape } from "../helpers/metrics.js";
import { acceptedOrder, createScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const feedDir = mkdtempSync(path.join(os.tmpdir(), "metrics-feeds-"));
const app = useTestApp({ MF_METRICS_TOKEN: METRICS_TOKEN, HOLDINGS_FEED_DIR: feedDir, WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETRY_DELAYS: "1s,2s,3s,4s,5s" });
let receiver: Receiver;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  receiver = await startReceiver();
  await createScheme(app, "931001", { isinGrowth: "INF931T01AA1", name: "Metrics Fund", amcCode: "METAMC", amcName: "Metrics Mutual Fund", category: "Equity", nav: "10.0000" });
  ctx = await orderingInvestor(app);
});
afterAll(async () => {
  await receiver.close();
  await rm(feedDir, { recursive: true, force: true });
});

describe("mf_jobs_total and mf_job_duration_seconds", () => {
  it("count and time a job the worker runs, by task, outcome success", async () => {
    const success = { task: "auth__purge_expired_tokens", outcome: "success" };
    const before = await scrape(app);
    await enqueue(app.prisma, "auth__purge_expired_tokens", {}, { jobKey: "metrics-test" });
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => grew(before, await scrape(app), "mf_jobs_total", success), { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.stop();
    }
    const after = await scrape(app);
    expect(grew(before, after, "mf_job_duration_seconds_count", { task: "auth__purge_expired_tokens" })).toBe(1);
    expect(grew(before, after, "mf_jobs_total", { task: "auth__purge_expired_tokens", outcome: "failure" })).toBe(0);
  });

  it("count a run that throws as a failure, and the error still reaches graphile-worker", async () => {
    const failure = { task: "metrics__test_failing", outcome: "failure" };
    const before = await scrape(app);
    const failing = meteredTask("metrics__test_failing", async () => {
      throw new Error("the task failed");
    });
    await expect(Promise.resolve(failing({}, {} as never))).rejects.toThrow("the task failed");
    const after = await scrape(app);
    expect(grew(before, after, "mf_jobs_total", failure)).toBe(1);
    expect(grew(before, after, "mf_job_duration_seconds_count", { task: "metrics__test_failing" })).toBe(1);
  });
});

describe("mf_exchange_calls_total and mf_exchange_call_duration_seconds", () => {
  it("count each call to the exchange by port method: ok, refused (REJECTED) or error (unreachable)", async () => {
    const placed = (outcome: string) => ({ service: "placeOrder", outcome });
    const before = await scrape(app);
    await acceptedOrder(app, ctx, lumpsumOrder("931001", { amount: 1000 }));
    await acceptedOrder(app, ctx, lumpsumOrder("931001", { amount: 1000, remarks: "SIM:REJECT" }));
    await acceptedOrder(app, ctx, lumpsumOrder("931001", { amount: 1000, remarks: "SIM:FAIL" }));
    const after = await scrape(app);
    expect([grew(before, after, "mf_exchange_calls_total", placed("ok")), grew(before, after, "mf_exchange_calls_total", placed("refused")), grew(before, after, "mf_exchange_calls_total", placed("error"))]).toEqual([1, 1, 1]);
    expect(grew(before, after, "mf_exchange_call_duration_seconds_count", { service: "placeOrder" })).toBe(3);
  });

  it("count a refusal only for what the exchange was asked to do; a read is ok whatever it reports", async () => {
    const rejected = { status: "REJECTED", remark: "NO" };
    const port = {
      registerInvestor: async () => rejected,
      investorStatus: async () => rejected,
      cancelOrder: async () => ({ cancelled: false, remark: "TOO LATE" }),
      createPayment: async () => ({ status: "FAILED", remark: "NO", failureCode: "bank_declined" }),
      paymentStatus: async () => [{ paymentId: "pay_1", status: "FAILED", remark: null }],
    } as unknown as ExchangePort;
    const { exchange } = meteredExchange({ exchange: port });
    const before = await scrape(app);
    await exchange.registerInvestor({} as never);
    await exchange.investorStatus("C1");
    await exchange.cancelOrder("ord_1");
    await exchange.createPayment({} as never);
    await exchange.paymentStatus(["pay_1"]);
    const after = await scrape(app);
    const outcomes = (service: string) => ["ok", "refused", "error"].map((outcome) => grew(before, after, "mf_exchange_calls_total", { service, outcome }));
    expect(Object.fromEntries(["registerInvestor", "investorStatus", "cancelOrder", "createPayment", "paymentStatus"].map((s) => [s, outcomes(s)]))).toEqual({
      registerInvestor: [0, 1, 0], investorStatus: [1, 0, 0], cancelOrder: [0, 1, 0], createPayment: [0, 1, 0], paymentStatus: [1, 0, 0],
    });
  });

  it("leave the adapter itself for everything else: its class, its own methods", () => {
    expect(app.services.exchange).toBeInstanceOf(SandboxExchange);
    expect(app.services.exchange.constructor).toBe(SandboxExchange);
    expect(app.services.exchange.matchInstallments).toBeUndefined();
  });
});

describe("mf_webhook_deliveries_total", () => {
  it("counts each delivery's turn by outcome: delivered, retrying", async () => {
    const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: ctx.token, json: { url: receiver.url(), events: ["order.accepted"] } });
    expect(res.status).toBe(201);
    const before = await scrape(app);
    receiver.answer({ status: 204 });
    await acceptedOrder(app, ctx, lumpsumOrder("931001", { amount: 1000 }));
    await runTask(app, deliverWebhooks, {});
    const delivered = await scrape(app);
    expect(grew(before, delivered, "mf_webhook_deliveries_total", { outcome: "delivered" })).toBe(1);

    receiver.answer({ status: 500, body: "down" });
    await acceptedOrder(app, ctx, lumpsumOrder("931001", { amount: 1000 }));
    await runTask(app, deliverWebhooks, {});
    const after = await scrape(app);
    expect(grew(delivered, after, "mf_webhook_deliveries_total", { outcome: "retrying" })).toBe(1);
    expect(grew(delivered, after, "mf_webhook_deliveries_total", { outcome: "delivered" })).toBe(0);

    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${res.body.data.id}`, { token: ctx.token });
    await app.prisma.webhookDelivery.updateMany({ where: { subscriptionId: res.body.data.id, status: "PENDING" }, data: { nextAttemptAt: new Date() } });
    await runTask(app, deliverWebhooks, {});
    // The subscription is gone: its pending delivery ends FAILED without an attempt.
    expect(grew(after, await scrape(app), "mf_webhook_deliveries_total", { outcome: "failed" })).toBe(1);
  });
});

describe("mf_holdings_import_rows_total", () => {
  it("counts the positions a registrar's feed brought, by registrar", async () => {
    const placed = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, ...lumpsumOrder("931001", { amount: 5000 }) } });
    expect(placed.status).toBe(201);
    await runTask(app, dispatchOrder, { order_id: placed.body.id });
    expect((await app.http("GET", `/api/simulation/orders/v1/${placed.body.id}/allot?nav=10&folio_no=MET%2F1`, { token: ctx.token })).status).toBe(200);
    const before = await scrape(app);
    const refreshed = await app.http("GET", "/api/simulation/holdings/v1/refresh", { token: ctx.token });
    expect(refreshed.body.message).toMatch(/^Holdings refreshed: 2 feed\(s\) imported \(1 positions, 1 transactions\)/);
    const after = await scrape(app);
    expect(grew(before, after, "mf_holdings_import_rows_total", { registrar: "CAMS" })).toBe(1);
    expect(grew(before, after, "mf_holdings_import_rows_total", { registrar: "KFINTECH" })).toBe(0);
  });
});
