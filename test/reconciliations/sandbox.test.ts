import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileJob } from "../../src/domains/reconciliations/jobs/reconcile.js";
import { openMismatchesByKind } from "../../src/domains/reconciliations/reconciliations.service.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, eventNames, lumpsumOrder, orderingInvestor, today } from "../helpers/orders.js";
import { runEntry } from "../helpers/process.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

/**
 * The sandbox end to end: our orders of today, the sandbox exchange's books moved behind the status sync's
 * back (an allotment it never saw, a rejection, an order it lost, an amount it holds otherwise, an order placed
 * elsewhere), one reconciliation by the job and a second by `npm run mf -- reconcile`.
 */
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
let receiver: Receiver;
let otherReceiver: Receiver;
let dataDir: string;
const ids = {} as Record<"agreed" | "allotted" | "rejected" | "lost" | "amount", string>;
const ELSEWHERE = "ord_placedelsewhere0001";

const lumpsum = () => lumpsumOrder("960001", { amount: 1000 });
const recordOf = (reference: string) => app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "ORDER", reference } } });
const subscribe = async (token: string, url: string) => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url, events: ["reconciliation.*"] } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const mismatchRows = () => app.prisma.reconciliationMismatch.findMany({ orderBy: { key: "asc" } });
const mismatchEvents = () => app.prisma.event.findMany({ where: { event: "reconciliation.mismatch" }, orderBy: { id: "asc" } });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "reconcile-cli-"));
  [receiver, otherReceiver] = await Promise.all([startReceiver(), startReceiver()]);
  await createOpenScheme(app, "960001");
  ctx = await orderingInvestor(app);
  await subscribe(ctx.token, receiver.url());
  await subscribe(ctx.otherToken, otherReceiver.url());
  for (const name of ["agreed", "allotted", "rejected", "lost", "amount"] as const) ids[name] = await acceptedOrder(app, ctx, lumpsum());

  const sandbox = app.services.sandboxExchange!;
  await sandbox.reportAllotment(ids.allotted, {
    folioNo: "9100234/51", schemeCode: "960001", nav: "12.3456", units: "81.000518", amount: "1000", allotmentDate: today(), valid: true, remark: null,
  });
  await sandbox.set("ORDER", ids.rejected, "REJECTED", "RTA: DUPLICATE ORDER OF ABCDE1234F");
  await app.prisma.sandboxExchangeRecord.delete({ where: { kind_reference: { kind: "ORDER", reference: ids.lost } } });
  const amount = await recordOf(ids.amount);
  await app.prisma.sandboxExchangeRecord.update({
    where: { kind_reference: { kind: "ORDER", reference: ids.amount } },
    data: { payload: { ...(amount.payload as object), amount: "1500.00" } },
  });
  await app.prisma.sandboxExchangeRecord.create({
    data: {
      kind: "ORDER", reference: ELSEWHERE, status: "ACCEPTED", remark: "ORDER CONFIRMED",
      payload: { orderId: ELSEWHERE, orderType: "LUMPSUM_PURCHASE", clientCode: "ELSEWHERE1", schemeCode: "960001", amount: "7500.00", units: null },
    },
  });
});

afterAll(async () => {
  await Promise.all([receiver?.close(), otherReceiver?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

const numberOf = (id: string) => `SBX${id.slice(-12).toUpperCase()}`;

describe("reconciling a day with the sandbox exchange", () => {
  it("stores the run and each mismatch, fixes the missed allotment through the status sync's code, and records one event per mismatch", async () => {
    await runTask(app, reconcileJob, { date: today() });

    const run = await app.prisma.reconciliationRun.findFirstOrThrow();
    expect(run).toMatchObject({ status: "COMPLETED", ourOrders: 5, exchangeOrders: 5, mismatches: 5, fixed: 1, error: null });
    expect(run.date.toISOString().slice(0, 10)).toBe(today());
    expect(run.finishedAt!.getTime()).toBeGreaterThanOrEqual(run.startedAt.getTime());

    const distributorId = (await app.prisma.order.findUniqueOrThrow({ where: { id: ids.agreed } })).distributorId;
    expect((await mismatchRows()).map(({ key, kind, orderId, distributorId: d, exchangeOrderNumber, ours, theirs, fixed }) => ({ key, kind, orderId, d, exchangeOrderNumber, ours, theirs, fixed }))).toEqual(
      [
        { key: `ALLOTMENT_MISSED:${ids.allotted}`, kind: "ALLOTMENT_MISSED", orderId: ids.allotted, d: distributorId, exchangeOrderNumber: numberOf(ids.allotted), ours: "ACCEPTED", theirs: `ALLOTTED 81.001 units at NAV 12.3456, amount 1000.00, on ${today()}`, fixed: true },
        { key: `AMOUNT:${ids.amount}`, kind: "AMOUNT", orderId: ids.amount, d: distributorId, exchangeOrderNumber: numberOf(ids.amount), ours: "1000.00", theirs: "1500.00", fixed: false },
        { key: `MISSING_AT_EXCHANGE:${ids.lost}`, kind: "MISSING_AT_EXCHANGE", orderId: ids.lost, d: distributorId, exchangeOrderNumber: numberOf(ids.lost), ours: "ACCEPTED", theirs: null, fixed: false },
        { key: `MISSING_HERE:${numberOf(ELSEWHERE)}`, kind: "MISSING_HERE", orderId: null, d: null, exchangeOrderNumber: numberOf(ELSEWHERE), ours: null, theirs: "ACCEPTED purchase of 960001, amount 7500.00", fixed: false },
        { key: `STATUS:${ids.rejected}`, kind: "STATUS", orderId: ids.rejected, d: distributorId, exchangeOrderNumber: numberOf(ids.rejected), ours: "ACCEPTED", theirs: "REJECTED: RTA: DUPLICATE ORDER OF ABXXXXX34F", fixed: false },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );

    // The fix: the order allotted exactly as the statement row (units truncated to 3 places), with order.allotted.
    const allotted = await app.prisma.order.findUniqueOrThrow({ where: { id: ids.allotted } });
    expect([allotted.status, allotted.nav?.toFixed(4), allotted.allottedUnits?.toFixed(3), allotted.allottedAmount?.toFixed(2), allotted.folioNo]).toEqual(["ALLOTTED", "12.3456", "81.000", "1000.00", "9100234/51"]);
    expect(await eventNames(app, ids.allotted)).toEqual(["order.accepted", "order.allotted"]);
    // Nothing else moved: the status sync, not the reconciliation, applies rejections.
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: ids.rejected } })).status).toBe("ACCEPTED");

    const events = await mismatchEvents();
    expect(events).toHaveLength(4);
    const byKind = Object.fromEntries(events.map((e) => [(e.data as { kind: string }).kind, e]));
    expect(byKind.ALLOTMENT_MISSED).toMatchObject({
      distributorId, resourceType: "reconciliation",
      data: { date: today(), kind: "ALLOTMENT_MISSED", order_id: ids.allotted, exchange_order_number: numberOf(ids.allotted), ours: "ACCEPTED", fixed: true },
    });
    expect(byKind.MISSING_HERE).toBeUndefined();
    expect(events.every((e) => e.distributorId === distributorId && (e.data as { mismatch_id: string }).mismatch_id === e.resourceId)).toBe(true);
  });

  it("delivers the events to the order's distributor's webhooks only", async () => {
    await runTask(app, deliverWebhooks, {});
    const received = await receiver.waitFor(4);
    expect(received.map((r) => r.headers["x-mf-event"])).toEqual(Array(4).fill("reconciliation.mismatch"));
    const bodies = received.map((r) => JSON.parse(r.body.toString("utf8")).data);
    expect(bodies.map((b) => b.order_id).sort()).toEqual([ids.allotted, ids.amount, ids.lost, ids.rejected].sort());
    expect(JSON.stringify(bodies)).not.toContain("ABCDE1234F");
    expect(otherReceiver.received).toEqual([]);
    expect(await app.prisma.webhookDelivery.count({ where: { event: "reconciliation.mismatch" } })).toBe(4);
  });

  it("GET /api/reconciliations/v1?date= answers the distributor's own mismatches and counts", async () => {
    const res = await app.http("GET", `/api/reconciliations/v1?date=${today()}`, { token: ctx.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      date: today(), status: "COMPLETED",
      counts: { total: 4, fixed: 1, by_kind: { MISSING_HERE: 0, MISSING_AT_EXCHANGE: 1, STATUS: 1, AMOUNT: 1, UNITS: 0, ALLOTMENT_MISSED: 1 } },
    });
    expect(res.body.success).toBe(true);
    expect(typeof res.body.data.started_at).toBe("string");
    const rows = new Map((await mismatchRows()).map((m) => [m.id, m]));
    expect(res.body.data.mismatches).toHaveLength(4);
    for (const m of res.body.data.mismatches) {
      const row = rows.get(m.id)!;
      expect(m).toEqual({ id: row.id, kind: row.kind, order_id: row.orderId, exchange_order_number: row.exchangeOrderNumber, ours: row.ours, theirs: row.theirs, fixed: row.fixed, created_at: row.createdAt.toISOString() });
    }
  });

  it("another distributor sees the run but none of it", async () => {
    const res = await app.http("GET", `/api/reconciliations/v1?date=${today()}`, { token: ctx.otherToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "COMPLETED", counts: { total: 0, fixed: 0 }, mismatches: [] });
  });

  it("a date with no run is NOT_RUN; a bad or missing date is 400 naming the field; no token is 401", async () => {
    expect((await app.http("GET", "/api/reconciliations/v1?date=2020-01-06", { token: ctx.token })).body).toEqual({
      success: true,
      data: { date: "2020-01-06", status: "NOT_RUN", started_at: null, finished_at: null, counts: { total: 0, fixed: 0, by_kind: { MISSING_HERE: 0, MISSING_AT_EXCHANGE: 0, STATUS: 0, AMOUNT: 0, UNITS: 0, ALLOTMENT_MISSED: 0 } }, mismatches: [] },
    });
    const bad = await app.http("GET", "/api/reconciliations/v1?date=2026-02-30", { token: ctx.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "date", reason: "invalid_date" }] });
    const missing = await app.http("GET", "/api/reconciliations/v1", { token: ctx.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toMatchObject([{ path: "date", reason: "required" }]);
    expect((await app.http("GET", `/api/reconciliations/v1?date=${today()}`)).status).toBe(401);
  });

  it("the open mismatches per kind, for the metric", async () => {
    expect(await openMismatchesByKind(app.prisma)).toEqual({ MISSING_HERE: 1, MISSING_AT_EXCHANGE: 1, STATUS: 1, AMOUNT: 1, UNITS: 0, ALLOTMENT_MISSED: 0 });
  });
});

describe("npm run mf -- reconcile", () => {
  const cli = (...args: string[]) => {
    const run = runEntry("src/cli.ts", ["reconcile", ...args], { DATABASE_URL: app.databaseUrl, MF_DATA_DIR: dataDir, MF_DATA_KEY: randomBytes(32).toString("hex") });
    return run.exited.then((code) => ({ code, output: run.output() }));
  };

  it("reconciles the date again: the same mismatches, no second event, the fix kept; prints the operator's totals", async () => {
    const before = (await mismatchRows()).map((m) => m.id);
    const { code, output } = await cli("--date", today());
    expect(code, output).toBe(0);
    const arn = (await app.prisma.distributor.findFirstOrThrow({ where: { id: (await app.prisma.order.findUniqueOrThrow({ where: { id: ids.agreed } })).distributorId } })).arn;
    expect(output.trim().split("\n")).toEqual([
      `Reconciled ${today()}: 5 of our orders, 5 in the exchange's order status report; 5 mismatch(es), 1 fixed.`,
      "By kind:",
      "  MISSING_HERE 1",
      "  MISSING_AT_EXCHANGE 1",
      "  STATUS 1",
      "  AMOUNT 1",
      "  ALLOTMENT_MISSED 1",
      "By distributor:",
      `  ${arn} 4`,
      "  (not ours) 1",
    ]);
    expect((await mismatchRows()).map((m) => m.id)).toEqual(before);
    expect(await mismatchEvents()).toHaveLength(4);
    expect(await eventNames(app, ids.allotted)).toEqual(["order.accepted", "order.allotted"]);
    expect(await app.prisma.reconciliationRun.count()).toBe(1);
  });

  it("--json prints the totals as JSON", async () => {
    const { code, output } = await cli("--date", today(), "--json");
    expect(code, output).toBe(0);
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toMatchObject({
      run: { date: today(), status: "COMPLETED", our_orders: 5, exchange_orders: 5, mismatches: 5, fixed: 1 },
      by_kind: { MISSING_HERE: 1, MISSING_AT_EXCHANGE: 1, STATUS: 1, AMOUNT: 1, UNITS: 0, ALLOTMENT_MISSED: 1 },
      exchange_only: 1,
      fixed: 1,
    });
  });

  it("refuses a bad --date with exit code 2 and says why", async () => {
    for (const [date, message] of [["2026-13-01", '--date must be a date YYYY-MM-DD (got "2026-13-01")'], ["yesterday", '--date must be a date YYYY-MM-DD (got "yesterday")'], ["2999-01-01", "--date 2999-01-01 is after today (India)"]] as const) {
      const { code, output } = await cli("--date", date);
      expect(code, output).toBe(2);
      expect(output).toContain(message);
    }
  });
});
