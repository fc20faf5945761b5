import { describe, expect, it } from "vitest";
import { cancelOrderAtExchange } from "../../../src/domains/orders/jobs/cancel-at-exchange.js";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { createDueInstallments } from "../../../src/domains/orders/schedule.js";
import { maskFreeText } from "../../../src/platform/lib/mask.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { investorKnownToExchange } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { dayPlus, eventNames, placedOrder, today } from "../../helpers/orders.js";

/** POST /api/orders/v1/{id}/cancel with MF_EXCHANGE=bse, against the double (issue 23 points 7 and 8). */

const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

const registeredInvestor = () => investorKnownToExchange(app);

type Ctx = Awaited<ReturnType<typeof registeredInvestor>>;
const cancel = (ctx: Ctx, id: string) => app.http("POST", `/api/orders/v1/${id}/cancel`, { token: ctx.token });
const get = async (ctx: Ctx, id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const cancelJob = (id: string, attempts = 1) => runTask(app, cancelOrderAtExchange, { order_id: id }, { attempts, maxAttempts: 5 });
const calls = (operation: string) => double.current.calls.filter((c) => c.operation === operation).length;
const sip = (scheme: string) => ({ order_type: "SIP", scheme_code: scheme, amount: 1000, sip: { frequency: "MONTHLY", start_date: today(), installments: 6, installment_day: 28 } });
const lumpSum = (scheme: string) => ({ order_type: "LUMPSUM_PURCHASE", scheme_code: scheme, amount: 5000, purchase_type: "FRESH" });

describe("cancelling with MF_EXCHANGE=bse", () => {
  it("a SIP registration: the CXL goes to the exchange (a transport failure is retried); confirmed -> CANCELLED, order.cancelled, schedule cancelled", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL01");
    const id = await placedOrder(app, ctx, sip("CXL01"));
    await runTask(app, dispatchOrder, { order_id: id });
    const registration = double.current.plans.registrations.find((r) => r.clientCode === ctx.uccCode)!;
    expect(await get(ctx, id)).toMatchObject({ status: "ACCEPTED", exchange_order_number: registration.regNo });

    expect((await cancel(ctx, id)).body).toMatchObject({ status: "ACCEPTED", cancellation: { status: "PENDING", remark: null } });
    double.current.failNext("sipOrderEntryParam", "http-503");
    await expect(cancelJob(id)).rejects.toThrow();
    expect(await get(ctx, id)).toMatchObject({ status: "ACCEPTED", cancellation: { status: "PENDING" } });
    await createDueInstallments(app.prisma, dayPlus(400));
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(0);

    await cancelJob(id, 2);
    expect(registration.cancelled).toBe(true);
    expect(await get(ctx, id)).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED", remark: null } });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.cancelled"]);
    expect((await app.prisma.orderInstallment.findMany({ where: { orderId: id } })).every((r) => r.status === "CANCELLED")).toBe(true);
  });

  it("a cancellation the exchange refuses: REFUSED with its remark (masked), the order ACCEPTED; asked again and confirmed", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL02");
    const id = await placedOrder(app, ctx, sip("CXL02"));
    await runTask(app, dispatchOrder, { order_id: id });
    await cancel(ctx, id);
    const remark = "FAILED: SIP CANCELLATION NOT ALLOWED FOR ABCDE1234F AFTER INSTALLMENT PROCESSING";
    double.current.plans.refuseNextCancel(remark);
    await cancelJob(id);
    const refused = await get(ctx, id);
    expect(refused).toMatchObject({ status: "ACCEPTED", cancellation: { status: "REFUSED", remark: maskFreeText(remark) } });
    expect(refused.cancellation.remark).not.toContain("ABCDE1234F");
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);

    expect((await cancel(ctx, id)).body.cancellation).toMatchObject({ status: "PENDING", remark: null });
    await cancelJob(id);
    expect(await get(ctx, id)).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED" } });
  });

  it("the exchange unreachable on the job's last attempt: REFUSED saying so, to be asked again", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL03");
    const id = await placedOrder(app, ctx, sip("CXL03"));
    await runTask(app, dispatchOrder, { order_id: id });
    await cancel(ctx, id);
    double.current.failNext("sipOrderEntryParam", "http-503");
    await cancelJob(id, 5);
    expect(await get(ctx, id)).toMatchObject({ status: "ACCEPTED", cancellation: { status: "REFUSED", remark: expect.stringMatching(/^NOT CANCELLED: THE EXCHANGE COULD NOT BE REACHED/) } });
  });

  it("an ACCEPTED lump sum: 409, nothing sent to the exchange", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL04");
    const id = await placedOrder(app, ctx, lumpSum("CXL04"));
    await runTask(app, dispatchOrder, { order_id: id });
    const sent = double.current.calls.length;
    const res = await cancel(ctx, id);
    expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(res.body.error.message).toContain("the exchange does not cancel an accepted one-time order");
    expect(double.current.calls.length).toBe(sent);
    expect(await get(ctx, id)).toMatchObject({ status: "ACCEPTED", cancellation: null });
  });

  it("mid-send: a cancel while the dispatch waits for the exchange's answer is refused; the order ends ACCEPTED, one exchange order", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL05");
    const id = await placedOrder(app, ctx, lumpSum("CXL05"));
    const gate = double.current.gateNext("orderEntryParam");
    const dispatching = runTask(app, dispatchOrder, { order_id: id });
    await gate.arrived;
    const res = await cancel(ctx, id);
    expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(res.body.error.message).toBe(`Order ${id} is being sent to the exchange; wait for order.accepted (a registration can then be cancelled)`);
    expect((await get(ctx, id)).status).toBe("PENDING");
    gate.release();
    await dispatching;
    const booked = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    expect(booked).toHaveLength(1);
    expect(await get(ctx, id)).toMatchObject({ status: "ACCEPTED", exchange_order_number: booked[0]!.orderNo });
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
  });

  it("mid-send SIP: refused while being sent, then (ACCEPTED) cancelled at the exchange", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL06");
    const id = await placedOrder(app, ctx, sip("CXL06"));
    const gate = double.current.gateNext("sipOrderEntryParam");
    const dispatching = runTask(app, dispatchOrder, { order_id: id });
    await gate.arrived;
    expect((await cancel(ctx, id)).status).toBe(409);
    gate.release();
    await dispatching;
    expect((await cancel(ctx, id)).body).toMatchObject({ status: "ACCEPTED", cancellation: { status: "PENDING" } });
    await cancelJob(id);
    expect(double.current.plans.registrations.find((r) => r.clientCode === ctx.uccCode)!.cancelled).toBe(true);
    expect((await get(ctx, id)).status).toBe("CANCELLED");
  });

  it("a cancel before the dispatch: CANCELLED, and the dispatch sends nothing to the exchange", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "CXL07");
    const id = await placedOrder(app, ctx, lumpSum("CXL07"));
    expect((await cancel(ctx, id)).body.status).toBe("CANCELLED");
    const sent = calls("orderEntryParam");
    await runTask(app, dispatchOrder, { order_id: id });
    expect(calls("orderEntryParam")).toBe(sent);
    expect(await eventNames(app, id)).toEqual(["order.cancelled"]);
  });
});
