import { beforeAll, describe, expect, it } from "vitest";
import { cancelOrderAtExchange } from "../../src/domains/orders/jobs/cancel-at-exchange.js";
import { pauseOrderAtExchange } from "../../src/domains/orders/jobs/pause-at-exchange.js";
import { cancelAfterFailedInstallments } from "../../src/domains/orders/auto-cancel.js";
import { rejectAccepted } from "../../src/domains/orders/lifecycle.js";
import { getOrderById } from "../../src/domains/orders/orders.repo.js";
import { createPayment } from "../../src/domains/payments/payments.service.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, dayPlus, eventNames, orderingInvestor, today } from "../helpers/orders.js";

/** SEBI's automatic SIP cancellation (issue 26 point 4): consecutive failed installments cancel a SIP or XSIP at the exchange. */

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "990001");
  ctx = await orderingInvestor(app, { mandate: true });
  // The SIP master allows pauses (the pause test below).
  await app.prisma.exchangeSipRule.updateMany({ where: { code: "BSE990001" }, data: { pauseAllowed: true } });
});

const REASON = "auto_cancelled_after_failed_installments";
const get = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const cancelJobs = (id: string) => queuedJobs(app, "orders__cancel_at_exchange", "order_id", id);
const booked = (id: string) => app.prisma.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind: "ORDER", reference: id } } });
const sip = (frequency: string) => ({ order_type: "SIP", scheme_code: "990001", amount: 1000, sip: { frequency, start_date: today(), installments: 12, installment_day: 28 } });
const xsip = (frequency: string) => ({ order_type: "XSIP", scheme_code: "990001", amount: 1500, mandate_id: ctx.mandateId, sip: { frequency, start_date: dayPlus(1), installments: 12, installment_day: 10 } });

async function nextInstallment(registrationId: string): Promise<string> {
  const res = await app.http("GET", `/api/simulation/orders/v1/${registrationId}/next-installment`, { token: ctx.token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as string;
}

/** The installment's payment: a SIP's made by the investor (UPI), an XSIP's the mandate debit created with it. */
async function paymentOf(childId: string): Promise<string> {
  const existing = await app.prisma.payment.findFirst({ where: { orderId: childId, status: "PENDING" } });
  if (existing) return existing.id;
  const payment = await app.prisma.$transaction(async (tx) => createPayment(tx, { order: await getOrderById(tx, childId), mode: "UPI", details: { vpa: "as***@okhdfc" } }));
  return payment.id;
}

async function settle(childId: string, outcome: "fail" | "capture"): Promise<void> {
  const query = outcome === "fail" ? "?failure_code=insufficient_funds" : "";
  const res = await app.http("GET", `/api/simulation/payments/v1/${await paymentOf(childId)}/${outcome}${query}`, { token: ctx.token });
  expect(res.status, res.text).toBe(200);
}

/** Creates the registration's next installments and settles each as told, in order. */
async function installments(registrationId: string, outcomes: Array<"fail" | "capture">): Promise<string[]> {
  const children: string[] = [];
  for (const outcome of outcomes) {
    const child = await nextInstallment(registrationId);
    await settle(child, outcome);
    children.push(child);
  }
  return children;
}

const cancellationRow = (id: string) =>
  app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, cancellationStatus: true, cancellationReason: true, cancellationRemark: true } });
const cancelledEvents = (id: string) => app.prisma.event.findMany({ where: { resourceId: id, event: "order.cancelled" }, select: { data: true } });

describe("a monthly SIP", () => {
  it("3 failed installments: cancellation asked of the exchange with the reason; the job confirms it: CANCELLED with one order.cancelled", async () => {
    const id = await acceptedOrder(app, ctx, sip("MONTHLY"));
    await installments(id, ["fail", "fail"]);
    expect(await cancellationRow(id)).toEqual({ status: "ACCEPTED", cancellationStatus: null, cancellationReason: null, cancellationRemark: null });
    expect(await cancelJobs(id)).toEqual([]);

    await installments(id, ["fail"]);
    const asked = await get(id);
    expect(asked).toMatchObject({ status: "ACCEPTED", cancellation: { requested_at: expect.any(String), status: "PENDING", remark: null, reason: REASON } });
    expect(await cancelJobs(id)).toEqual([{ key: `orders__cancel_at_exchange:${id}`, payload: { order_id: id }, max_attempts: expect.any(Number) }]);
    // No more installments while the exchange is asked.
    expect((await app.http("GET", `/api/simulation/orders/v1/${id}/next-installment`, { token: ctx.token })).status).toBe(409);

    await runTask(app, cancelOrderAtExchange, { order_id: id });
    expect(await get(id)).toMatchObject({ status: "CANCELLED", cancellation: { requested_at: asked.cancellation.requested_at, status: "CONFIRMED", remark: null, reason: REASON } });
    expect((await booked(id))?.status).toBe("CANCELLED");
    expect(await cancelledEvents(id)).toEqual([{ data: { order_id: id, status: "CANCELLED", provider_remark: REASON } }]);
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.cancelled"]);
    const left = await app.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" }, select: { status: true } });
    expect(left.map((r) => r.status)).toEqual([...Array(3).fill("CREATED"), ...Array(9).fill("CANCELLED")]);
  });

  it("2 failures, a success, 2 failures: not cancelled (a success resets the run)", async () => {
    const id = await acceptedOrder(app, ctx, sip("MONTHLY"));
    await installments(id, ["fail", "fail", "capture", "fail", "fail"]);
    expect(await cancellationRow(id)).toEqual({ status: "ACCEPTED", cancellationStatus: null, cancellationReason: null, cancellationRemark: null });
    expect(await cancelJobs(id)).toEqual([]);
  });

  it("paused installments are not failures and do not break a run: 2 failures, 2 paused, a failure cancels", async () => {
    const id = await acceptedOrder(app, ctx, sip("MONTHLY"));
    await installments(id, ["fail", "fail"]);
    const paused = await app.http("POST", `/api/orders/v1/${id}/pause`, { token: ctx.token, json: { installments: 2 } });
    expect(paused.status, paused.text).toBe(200);
    await runTask(app, pauseOrderAtExchange, { pause_id: paused.body.id });
    const [third] = await installments(id, ["fail"]);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: third! }, select: { installmentNo: true } })).installmentNo).toBe(5);
    const schedule = await app.prisma.orderInstallment.findMany({ where: { orderId: id, installmentNo: { lte: 5 } }, orderBy: { installmentNo: "asc" }, select: { status: true } });
    expect(schedule.map((r) => r.status)).toEqual(["CREATED", "CREATED", "PAUSED", "PAUSED", "CREATED"]);
    expect(await cancellationRow(id)).toEqual({ status: "ACCEPTED", cancellationStatus: "PENDING", cancellationReason: REASON, cancellationRemark: null });
  });

  it("idempotent: failures reported after the cancellation is asked (out of order included) ask nothing again", async () => {
    const id = await acceptedOrder(app, ctx, sip("QUARTERLY"));
    const children = [await nextInstallment(id), await nextInstallment(id), await nextInstallment(id), await nextInstallment(id)];
    // Failures come in out of order: the 3rd, the 1st, then the 2nd completes the run.
    for (const n of [2, 0]) await settle(children[n]!, "fail");
    expect((await cancellationRow(id)).cancellationStatus).toBeNull();
    await settle(children[1]!, "fail");
    const asked = await get(id);
    expect(asked.cancellation).toMatchObject({ status: "PENDING", reason: REASON });
    await settle(children[3]!, "fail");
    expect((await get(id)).cancellation).toEqual(asked.cancellation);
    expect(await app.prisma.$transaction((tx) => cancelAfterFailedInstallments(tx, children[3]!))).toBe(false);
    expect(await cancelJobs(id)).toHaveLength(1);
    await runTask(app, cancelOrderAtExchange, { order_id: id });
    await runTask(app, cancelOrderAtExchange, { order_id: id });
    expect(await cancelledEvents(id)).toHaveLength(1);
    expect(await app.prisma.$transaction((tx) => cancelAfterFailedInstallments(tx, children[3]!))).toBe(false);
  });

  it("a distributor's own cancel is shown with reason requested and a null remark in order.cancelled", async () => {
    const id = await acceptedOrder(app, ctx, sip("MONTHLY"));
    expect((await app.http("POST", `/api/orders/v1/${id}/cancel`, { token: ctx.token })).body.cancellation).toMatchObject({ status: "PENDING", reason: "requested" });
    await runTask(app, cancelOrderAtExchange, { order_id: id });
    expect(await cancelledEvents(id)).toEqual([{ data: { order_id: id, status: "CANCELLED", provider_remark: null } }]);
  });
});

describe("a weekly SIP", () => {
  it("needs 6 failures in a row: 5 ask nothing, the 6th asks the cancellation", async () => {
    const id = await acceptedOrder(app, ctx, sip("WEEKLY"));
    await installments(id, ["fail", "fail", "fail", "fail", "fail"]);
    expect((await cancellationRow(id)).cancellationStatus).toBeNull();
    await installments(id, ["fail"]);
    expect(await cancellationRow(id)).toEqual({ status: "ACCEPTED", cancellationStatus: "PENDING", cancellationReason: REASON, cancellationRemark: null });
  });
});

describe("an XSIP", () => {
  it("monthly: 3 failed mandate debits cancel it at the exchange", async () => {
    const id = await acceptedOrder(app, ctx, xsip("MONTHLY"));
    const children = await installments(id, ["fail", "fail", "fail"]);
    for (const child of children) expect((await app.prisma.payment.findFirstOrThrow({ where: { orderId: child } })).mode).toBe("MANDATE");
    await runTask(app, cancelOrderAtExchange, { order_id: id });
    expect(await get(id)).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED", reason: REASON } });
    expect(await cancelledEvents(id)).toHaveLength(1);
  });

  it("installments rejected for an invalid mandate count; other rejections break the run", async () => {
    const id = await acceptedOrder(app, ctx, xsip("MONTHLY"));
    const reject = (child: string, code: "mandate_invalid" | "exchange_rejected") => rejectAccepted(app.prisma, child, "REJECTED", code);
    const children = [await nextInstallment(id), await nextInstallment(id), await nextInstallment(id), await nextInstallment(id), await nextInstallment(id)];
    await reject(children[0]!, "mandate_invalid");
    await reject(children[1]!, "exchange_rejected");
    await reject(children[2]!, "mandate_invalid");
    await settle(children[3]!, "fail");
    expect((await cancellationRow(id)).cancellationStatus).toBeNull();
    await reject(children[4]!, "mandate_invalid");
    expect(await cancellationRow(id)).toEqual({ status: "ACCEPTED", cancellationStatus: "PENDING", cancellationReason: REASON, cancellationRemark: null });
  });
});
