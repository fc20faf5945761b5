import { describe, expect, it } from "vitest";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { importExchangeMasters } from "../../../src/domains/masters/exchange-masters.import.js";
import { useTestApp } from "../../helpers/app.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { investorKnownToExchange } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { createAmfiScheme, eventNames, placedOrder, testIsin } from "../../helpers/orders.js";

/**
 * The exchange's own scheme codes against the double, which trades only the codes of its scheme master (the
 * file the service imports) and only for the modes it lists: the code the service chose for the holding mode
 * is what reaches the exchange, and a code the exchange refuses ends the order REJECTED as scheme_not_tradable.
 */
const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

const registeredInvestor = () => investorKnownToExchange(app);

const lumpSum = (schemeCode: string, extra: Record<string, unknown> = {}) => ({ order_type: "LUMPSUM_PURCHASE", scheme_code: schemeCode, amount: 5000, purchase_type: "FRESH", ...extra });

describe("the exchange's scheme codes, against the double", () => {
  it("sends the physical code for a physical order and the demat code for a demat one", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CODE01", "P", "CODE01-P");
    double.current.schemeMaster.add("CODE01-D", testIsin("CODE01"), "D");
    await importExchangeMasters(app.prisma, { schemes: double.current.schemeMaster.text(), sip: double.current.schemeMaster.sipText() });

    const physical = await placedOrder(app, ctx, lumpSum("CODE01"));
    const demat = await placedOrder(app, ctx, lumpSum("CODE01", { holding_mode: "CDSL" }));
    for (const id of [physical, demat]) await runTask(app, dispatchOrder, { order_id: id });
    const booked = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode).map((o) => [o.schemeCode, o.values.get("DPTxn")]);
    expect(booked).toEqual([["CODE01-P", "P"], ["CODE01-D", "C"]]);
    for (const id of [physical, demat]) expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body.status).toBe("ACCEPTED");
  });

  it("a code the exchange does not list: REJECTED, scheme_not_tradable, the exchange's remark kept", async () => {
    const ctx = await registeredInvestor();
    // The service's master still lists a code the exchange has dropped (a stale import).
    const isin = await createAmfiScheme(app, "CODE02");
    await app.prisma.exchangeScheme.create({
      data: { code: "CODE02-OLD", isin, name: "Stale", transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: true, sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true },
    });
    const id = await placedOrder(app, ctx, lumpSum("CODE02"));
    await runTask(app, dispatchOrder, { order_id: id });
    const order = (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
    expect([order.status, order.failure_code, order.provider_remark, order.exchange_scheme_code]).toEqual(["REJECTED", "scheme_not_tradable", "FAILED: INVALID SCHEME CODE", "CODE02-OLD"]);
    expect(await eventNames(app, id)).toEqual(["order.rejected"]);
    expect(double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode)).toEqual([]);
  });

  it("a code whose mode does not fit the order's: REJECTED as well", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CODE03", "P", "CODE03-P");
    // The service believes the code serves both modes; the exchange lists it for physical holdings only.
    await app.prisma.exchangeScheme.update({ where: { code: "CODE03-P" }, data: { transactionMode: "BOTH" } });
    const id = await placedOrder(app, ctx, lumpSum("CODE03", { holding_mode: "NSDL" }));
    await runTask(app, dispatchOrder, { order_id: id });
    const order = (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
    expect([order.status, order.failure_code, order.provider_remark]).toEqual(["REJECTED", "scheme_not_tradable", "FAILED: INVALID SCHEME CODE"]);
  });
});
