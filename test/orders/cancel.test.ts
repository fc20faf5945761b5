import { beforeAll, describe, expect, it } from "vitest";
import { maskFreeText } from "../../src/platform/lib/mask.js";
import { cancelOrderAtExchange } from "../../src/domains/orders/jobs/cancel-at-exchange.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { claimForDispatch } from "../../src/domains/orders/orders.repo.js";
import { createDueInstallments } from "../../src/domains/orders/schedule.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, dayPlus, eventNames, orderingInvestor, placedOrder, today } from "../helpers/orders.js";

/** POST /api/orders/v1/{id}/cancel in the sandbox: only the cancels the exchange honours (issue 23 point 7). */

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "990001");
  await createOpenScheme(app, "990002");
  ctx = await orderingInvestor(app, { mandate: true });
});

const cancel = (id: string, token = ctx.token) => app.http("POST", `/api/orders/v1/${id}/cancel`, { token });
const get = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const sim = (path: string, token = ctx.token) => app.http("GET", `/api/simulation/orders/v1/${path}`, { token });
const cancelJob = (id: string) => runTask(app, cancelOrderAtExchange, { order_id: id });
const cancelJobs = (id: string) => queuedJobs(app, "orders__cancel_at_exchange", "order_id", id);
const installments = async (id: string) => (await app.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" } })).map((r) => r.status);
const row = (id: string) =>
  app.prisma.order.findUniqueOrThrow({
    where: { id },
    select: { status: true, paymentStatus: true, cancellationStatus: true, cancellationRequestedAt: true, cancellationRemark: true, updatedAt: true },
  });
const booked = (id: string) => app.prisma.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind: "ORDER", reference: id } } });

const lumpSum = { order_type: "LUMPSUM_PURCHASE", scheme_code: "990001", amount: 1000, purchase_type: "FRESH" };
const sip = () => ({ order_type: "SIP", scheme_code: "990001", amount: 1000, sip: { frequency: "MONTHLY", start_date: today(), installments: 6, installment_day: 28 } });

describe("a PENDING order not yet sent", () => {
  it("is CANCELLED at once with order.cancelled; its dispatch then sends nothing", async () => {
    const id = await placedOrder(app, ctx, lumpSum);
    const res = await cancel(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "CANCELLED", payment_status: "UNPAID", cancellation: null });
    expect(await app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true, data: true } })).toEqual([
      { event: "order.cancelled", data: { order_id: id, status: "CANCELLED", provider_remark: null } },
    ]);
    await runTask(app, dispatchOrder, { order_id: id });
    expect(await booked(id)).toBeNull();
    expect((await row(id)).status).toBe("CANCELLED");
    expect(await eventNames(app, id)).toEqual(["order.cancelled"]);
    const again = await cancel(id);
    expect([again.status, again.body.error.code]).toEqual([409, "INVALID_STATE"]);
  });

  it("mid-send: once the dispatch has claimed it, a cancel is refused and the order goes on to the exchange", async () => {
    const id = await placedOrder(app, ctx, lumpSum);
    // The dispatch's claim, as it takes it just before calling the exchange.
    expect(await claimForDispatch(app.prisma, [id])).toEqual([id]);
    const before = await row(id);
    const res = await cancel(id);
    expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(res.body.error.message).toBe(`Order ${id} is being sent to the exchange; wait for order.accepted (a registration can then be cancelled)`);
    expect(await row(id)).toEqual(before);
    expect(await eventNames(app, id)).toEqual([]);
    await runTask(app, dispatchOrder, { order_id: id });
    expect(await get(id)).toMatchObject({ status: "ACCEPTED", cancellation: null });
    expect((await booked(id))?.status).toBe("ACCEPTED");
  });

  it("a send the exchange certainly did not receive (SIM:FAIL) releases the claim: a cancel then goes through and the retry sends nothing", async () => {
    const id = await placedOrder(app, ctx, { ...lumpSum, remarks: "SIM:FAIL" });
    await runTask(app, dispatchOrder, { order_id: id });
    expect(await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, dispatchClaimedAt: true } })).toEqual({ status: "PENDING", dispatchClaimedAt: null });
    expect((await cancel(id)).body.status).toBe("CANCELLED");
    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 2 });
    expect(await booked(id)).toBeNull();
    expect(await eventNames(app, id)).toEqual(["order.cancelled"]);
  });

  it("held by the exchange (PENDING with its number): 409, nothing changes", async () => {
    const id = await acceptedOrder(app, ctx, { ...lumpSum, remarks: "SIM:HOLD" });
    const before = await row(id);
    const res = await cancel(id);
    expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(res.body.error.message).toMatch(new RegExp(`^Order ${id} is PENDING at the exchange \\(held as SBX`));
    expect(await row(id)).toEqual(before);
  });
});

describe("an ACCEPTED one-time order or installment: the exchange does not cancel it", () => {
  it.each([
    ["LUMPSUM_PURCHASE", () => lumpSum],
    ["REDEMPTION", () => ({ order_type: "REDEMPTION", scheme_code: "990001", folio_no: "1/1", units: 2 })],
    ["SWITCH", () => ({ order_type: "SWITCH", scheme_code: "990001", folio_no: "1/1", units: 1, switch: { to_scheme_code: "990002" } })],
  ])("%s: 409 INVALID_STATE, nothing changes", async (type, body) => {
    const id = await acceptedOrder(app, ctx, body());
    await expectRefusedOneTime(id, `a ${type}`);
  });

  it("SIP_TOPUP, and an installment of a SIP: 409 INVALID_STATE, nothing changes", async () => {
    const registration = await acceptedOrder(app, ctx, sip());
    const topUp = await acceptedOrder(app, ctx, { order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: registration } });
    await expectRefusedOneTime(topUp, "a SIP_TOPUP");
    const child = (await sim(`${registration}/next-installment`)).body.data as string;
    await expectRefusedOneTime(child, `an installment of ${registration}`);
  });

  async function expectRefusedOneTime(id: string, what: string) {
    const before = await row(id);
    const events = await eventNames(app, id);
    expect(before.status).toBe("ACCEPTED");
    const res = await cancel(id);
    expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(res.body.error.message).toBe(
      `Order ${id} is ${what} ACCEPTED by the exchange; the exchange does not cancel an accepted one-time order (only a SIP, XSIP, STP or SWP registration)`,
    );
    expect(await row(id)).toEqual(before);
    expect(await eventNames(app, id)).toEqual(events);
    expect(await cancelJobs(id)).toEqual([]);
    // An installment is the exchange's own order (the sandbox books only what was sent).
    if (!what.startsWith("an installment")) expect((await booked(id))?.status).toBe("ACCEPTED");
  }
});

describe("an ACCEPTED registration: the cancellation is asked at the exchange", () => {
  it("PENDING (the job queued, asking again answers the same), no installment meanwhile; CONFIRMED -> CANCELLED with order.cancelled, installments cancelled", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    const res = await cancel(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ACCEPTED", cancellation: { requested_at: expect.any(String), status: "PENDING", remark: null } });
    expect(Date.now() - Date.parse(res.body.cancellation.requested_at)).toBeLessThan(60_000);
    expect(await cancelJobs(id)).toEqual([{ key: `orders__cancel_at_exchange:${id}`, payload: { order_id: id }, max_attempts: expect.any(Number) }]);
    const again = await cancel(id);
    expect([again.status, again.body.cancellation]).toEqual([200, res.body.cancellation]);
    expect(await cancelJobs(id)).toHaveLength(1);

    // No installment while the exchange has not answered: neither the hourly job nor the simulation.
    await createDueInstallments(app.prisma, dayPlus(400));
    const next = await sim(`${id}/next-installment`);
    expect([next.status, next.body.error.message]).toEqual([409, `Registration ${id} has its cancellation pending at the exchange; no installment is created until the exchange answers`]);
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(0);
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);

    await cancelJob(id);
    expect(await get(id)).toMatchObject({ status: "CANCELLED", cancellation: { requested_at: res.body.cancellation.requested_at, status: "CONFIRMED", remark: null } });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.cancelled"]);
    expect(await installments(id)).toEqual(Array(6).fill("CANCELLED"));
    expect((await booked(id))?.status).toBe("CANCELLED");
    await createDueInstallments(app.prisma, dayPlus(400));
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(0);
    // The job again (a retry) changes nothing; the order cannot be cancelled twice.
    await cancelJob(id);
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.cancelled"]);
    expect((await cancel(id)).status).toBe(409);
  });

  it.each(["XSIP", "STP", "SWP"])("%s: cancelled the same way", async (type) => {
    const plan = { frequency: "MONTHLY", start_date: dayPlus(1), installments: 3 };
    const body: Record<string, Record<string, unknown>> = {
      XSIP: { order_type: "XSIP", scheme_code: "990001", amount: 1500, mandate_id: ctx.mandateId, sip: { ...plan, installment_day: 10 } },
      STP: { order_type: "STP", scheme_code: "990001", folio_no: "881/1", amount: 2000, stp: { to_scheme_code: "990002", ...plan } },
      SWP: { order_type: "SWP", scheme_code: "990001", folio_no: "881/1", units: 12.5, swp: plan },
    };
    const id = await acceptedOrder(app, ctx, body[type]!);
    expect((await cancel(id)).body.cancellation.status).toBe("PENDING");
    await cancelJob(id);
    expect(await get(id)).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED" } });
    expect(await installments(id)).toEqual(["CANCELLED", "CANCELLED", "CANCELLED"]);
  });
});

describe("GET /api/simulation/orders/v1/{id}/refuse-cancel", () => {
  it("on a PENDING cancellation: REFUSED at once with the remark, the order stays ACCEPTED; installments come again; asked again, refused again", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    await cancel(id);
    const res = await sim(`${id}/refuse-cancel?remark=${encodeURIComponent("SIP CANCELLATION NOT ALLOWED FOR ABCDE1234F")}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Cancellation refused", data: id });
    const refused = await get(id);
    expect(refused).toMatchObject({ status: "ACCEPTED", cancellation: { status: "REFUSED", remark: maskFreeText("SIP CANCELLATION NOT ALLOWED FOR ABCDE1234F") } });
    expect(refused.cancellation.remark).not.toContain("ABCDE1234F");
    // The job, when it runs, finds nothing pending; the books keep the order live at the exchange.
    await cancelJob(id);
    expect((await get(id)).cancellation.status).toBe("REFUSED");
    expect((await booked(id))?.status).toBe("ACCEPTED");
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
    expect((await sim(`${id}/next-installment`)).status).toBe(200);

    // Asked again: PENDING, and the exchange (the books remember) refuses again.
    expect((await cancel(id)).body.cancellation).toMatchObject({ status: "PENDING", remark: null });
    await cancelJob(id);
    expect((await get(id)).cancellation).toMatchObject({ status: "REFUSED", remark: refused.cancellation.remark });
  });

  it("before any cancel: the next cancellation is refused by the exchange (the job applies it); default remark", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    const res = await sim(`${id}/refuse-cancel`);
    expect(res.body).toEqual({ success: true, message: "The exchange will refuse this registration's cancellation", data: id });
    expect((await get(id)).cancellation).toBeNull();
    await cancel(id);
    await cancelJob(id);
    expect(await get(id)).toMatchObject({ status: "ACCEPTED", cancellation: { status: "REFUSED", remark: "SANDBOX: CANCELLATION REFUSED BY SIMULATION" } });
  });

  it("409 for a one-time order, an installment and a CANCELLED registration; 404 for another distributor's", async () => {
    const oneTime = await acceptedOrder(app, ctx, lumpSum);
    const registration = await acceptedOrder(app, ctx, sip());
    const child = (await sim(`${registration}/next-installment`)).body.data as string;
    const confirmed = await acceptedOrder(app, ctx, sip());
    await cancel(confirmed);
    await cancelJob(confirmed);
    for (const id of [oneTime, child, confirmed]) {
      const res = await sim(`${id}/refuse-cancel`);
      expect([res.status, res.body.error.code]).toEqual([409, "INVALID_STATE"]);
    }
    expect((await sim(`${registration}/refuse-cancel`, ctx.otherToken)).status).toBe(404);
    expect((await get(confirmed)).cancellation.status).toBe("CONFIRMED");
  });
});
