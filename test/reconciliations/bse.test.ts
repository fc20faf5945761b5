import { describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { reconcileJob } from "../../src/domains/reconciliations/jobs/reconcile.js";
import { BseExchange } from "../../src/integrations/exchange/bse/bse-exchange.js";
import { useTestApp } from "../helpers/app.js";
import { doubleConfig } from "../helpers/bse-double/adapter-world.js";
import { capturingLogger } from "../helpers/logs.js";
import { createBseScheme } from "../helpers/bse-double/schemes.js";
import { useBseDouble } from "../helpers/bse-double/double.js";
import { investorKnownToExchange } from "../helpers/investors.js";
import { runTask } from "../helpers/jobs.js";
import { eventNames, placedOrder, today } from "../helpers/orders.js";

/**
 * The reconciliation with MF_EXCHANGE=bse against the double: the order status report and the allotment and
 * redemption statements asked for the day (every order of the member, client code empty), as BSE takes them.
 */
const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

describe("reconciling a day with BSE StAR MF (the double)", () => {
  it("reads the day's reports, applies a missed allotment, and finds the exchange's order we do not have and the one it made INVALID", async () => {
    const ctx = await investorKnownToExchange(app);
    await createBseScheme(app, double.current, "RECO01");
    const place = async () => {
      const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "RECO01", amount: 5000, purchase_type: "FRESH" });
      await runTask(app, dispatchOrder, { order_id: id });
      return { id, number: (await app.prisma.order.findUniqueOrThrow({ where: { id } })).exchangeOrderNumber! };
    };
    const [agreed, allotted, invalid] = [await place(), await place(), await place()];
    double.current.reports.allot(allotted.number, { nav: "12.3456", units: "404.9985", amount: "4999.99", folioNo: "9988776/12", reportDate: today() });
    double.current.reports.invalidate(invalid.number, "PAYMENT NOT RECEIVED TILL DATE FOR ABCDE1234F");
    const elsewhere = double.current.orderEntry.placeOutside({ clientCode: "OTHER01", schemeCode: "BSERECO01", buySell: "R", amount: "", units: "12.5" });

    const asked = double.current.reports.requests.length;
    await runTask(app, reconcileJob, { date: today() });

    // One order status request for the day and the two statements from the day to today; every filter open, no client.
    const requests = double.current.reports.requests.slice(asked);
    expect(requests.map((r) => r.operation).sort()).toEqual(["AllotmentStatement", "OrderStatus", "RedemptionStatement"]);
    for (const { values } of requests) {
      expect(Object.fromEntries(values)).toMatchObject({
        FromDate: ddmmyyyy(today()), ToDate: ddmmyyyy(today()), ClientCode: "", OrderNo: "", OrderType: "All", SubOrderType: "All", OrderStatus: "All", SettType: "ALL",
        MemberCode: double.current.credentials.memberId, UserId: double.current.credentials.userId,
      });
    }

    const run = await app.prisma.reconciliationRun.findFirstOrThrow();
    expect(run).toMatchObject({ status: "COMPLETED", ourOrders: 3, exchangeOrders: 4, mismatches: 3, fixed: 1 });
    const mismatches = await app.prisma.reconciliationMismatch.findMany({ orderBy: { key: "asc" } });
    expect(mismatches.map(({ kind, orderId, exchangeOrderNumber, ours, theirs, fixed }) => ({ kind, orderId, exchangeOrderNumber, ours, theirs, fixed }))).toEqual([
      { kind: "ALLOTMENT_MISSED", orderId: allotted.id, exchangeOrderNumber: allotted.number, ours: "ACCEPTED", theirs: `ALLOTTED 404.999 units at NAV 12.3456, amount 4999.99, on ${today()}`, fixed: true },
      { kind: "MISSING_HERE", orderId: null, exchangeOrderNumber: elsewhere.orderNo, ours: null, theirs: "ACCEPTED redemption of BSERECO01, units 12.500", fixed: false },
      { kind: "STATUS", orderId: invalid.id, exchangeOrderNumber: invalid.number, ours: "ACCEPTED", theirs: "REJECTED: PAYMENT NOT RECEIVED TILL DATE FOR ABXXXXX34F", fixed: false },
    ]);
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id: allotted.id } });
    expect([row.status, row.allottedUnits?.toFixed(3), row.allottedAmount?.toFixed(2), row.folioNo]).toEqual(["ALLOTTED", "404.998", "4999.99", "9988776/12"]);
    expect(await eventNames(app, allotted.id)).toEqual(["order.accepted", "order.allotted"]);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: agreed.id } })).status).toBe("ACCEPTED");

    const api = await app.http("GET", `/api/reconciliations/v1?date=${today()}`, { token: ctx.token });
    expect(api.body.data.counts).toMatchObject({ total: 2, fixed: 1, by_kind: { STATUS: 1, ALLOTMENT_MISSED: 1, MISSING_HERE: 0 } });
  });

  it("a refusal of the report (the exchange's FAILED text) marks the run FAILED and fails the job, which retries", async () => {
    // The adapter logged in with a password the exchange refuses: its report answers 101 with the document's text.
    const wrong = new BseExchange(app.prisma, doubleConfig(double.current, { password: "Wrong@pass1" }), capturingLogger().logger);
    const failing = { ...app.services, exchange: wrong };
    await expect(runTask(app, reconcileJob, { date: "2026-01-05" }, { services: failing })).rejects.toThrow("BSE OrderStatus: FAILED:INVALID ACCOUNT INFORMATION");
    const run = await app.prisma.reconciliationRun.findFirstOrThrow({ where: { date: new Date("2026-01-05T00:00:00Z") } });
    expect(run).toMatchObject({ status: "FAILED", error: "BSE OrderStatus: FAILED:INVALID ACCOUNT INFORMATION" });
    expect((await app.http("GET", "/api/reconciliations/v1?date=2026-01-05", { token: (await investorKnownToExchange(app)).token })).body.data).toMatchObject({ status: "FAILED", mismatches: [] });
  });
});
