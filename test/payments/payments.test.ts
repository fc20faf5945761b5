import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { syncOrdersWithExchange } from "../../src/domains/orders/jobs/sync-exchange.js";
import { initiatePayment, syncPendingPayments } from "../../src/domains/payments/jobs/gateway.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, eventNames, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "920001");
  ctx = await orderingInvestor(app, { mandate: true });
});

const lumpsum = (overrides: Record<string, unknown> = {}) => ({ investment_account_id: ctx.account, ...lumpsumOrder("920001", { amount: 2500.5, ...overrides }) });

/** A lump sum by mandate, dispatched and ACCEPTED: its mandate payment is PENDING. Returns both ids. */
async function acceptedWithMandate(overrides: Record<string, unknown> = {}) {
  const orderId = await acceptedOrder(app, ctx, lumpsum({ mandate_id: ctx.mandateId, ...overrides }));
  const order = await getOrder(orderId);
  return { orderId, paymentId: order.payment_id as string };
}

const getOrder = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const getPayment = (id: string, token = ctx.token) => app.http("GET", `/api/payments/v1/${id}`, { token });
const sim = (path: string, token = ctx.token) => app.http("GET", `/api/simulation/payments/v1/${path}`, { token });

describe("payment by mandate for a lump sum", () => {
  it("starts a PENDING mandate payment when the exchange accepts the order, and presents it to the gateway once", async () => {
    const { orderId, paymentId } = await acceptedWithMandate();
    expect(paymentId).toMatch(/^pay_/);
    expect(await getOrder(orderId)).toMatchObject({ status: "ACCEPTED", payment_status: "PENDING", payment_id: paymentId });

    const jobs = await app.prisma.$queryRawUnsafe<Array<{ key: string }>>(
      `SELECT key FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'payments__initiate')`,
    );
    expect(jobs.map((j) => j.key)).toContain(`payments__initiate:${paymentId}`);
    await runTask(app, initiatePayment, { payment_id: paymentId });
    await runTask(app, initiatePayment, { payment_id: paymentId });
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "PAYMENT", reference: paymentId } })).toBe(1);

    const res = await getPayment(paymentId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: paymentId, order_id: orderId, basket_id: null, mode: "MANDATE", amount: 2500.5, status: "PENDING",
      mandate_id: ctx.mandateId, bank_account_id: null, vpa: null, gateway_reference: `SBXPAY${paymentId.slice(-10).toUpperCase()}`,
      provider_remark: null, failure_code: null, captured_at: null, refunded_at: null, created_at: expect.any(String), updated_at: expect.any(String),
    });
  });

  it("leaves an order without a mandate UNPAID with no payment", async () => {
    const placed = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: lumpsum() });
    await runTask(app, dispatchOrder, { order_id: placed.body.id });
    expect(await getOrder(placed.body.id)).toMatchObject({ status: "ACCEPTED", payment_status: "UNPAID", payment_id: null });
    expect(await app.prisma.payment.count({ where: { orderId: placed.body.id } })).toBe(0);
  });

  it("refuses an amount above the mandate's limit, writing nothing", async () => {
    const before = await app.prisma.order.count();
    const res = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: lumpsum({ mandate_id: ctx.mandateId, amount: 50000.01 }) });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "amount", reason: "amount_exceeds_mandate_limit", message: "exceeds the mandate's limit of 50000.00: lower the amount, or use a mandate with a higher limit" }]);
    expect(await app.prisma.order.count()).toBe(before);
  });
});

describe("the payment state table", () => {
  it("PENDING -> CAPTURED -> REFUNDED, one event per move, the order's payment_status in step; other moves 409", async () => {
    const { orderId, paymentId } = await acceptedWithMandate();
    const captured = await sim(`${paymentId}/capture`);
    expect(captured.status).toBe(200);
    expect(captured.body).toEqual({ success: true, message: "Payment captured", data: paymentId });
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "CAPTURED", captured_at: expect.any(String), provider_remark: "SANDBOX: FUNDS RECEIVED" });
    expect((await getOrder(orderId)).payment_status).toBe("PAID");

    for (const refused of ["capture", "fail"]) {
      const res = await sim(`${paymentId}/${refused}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("INVALID_STATE");
    }
    expect((await sim(`${paymentId}/refund`)).status).toBe(200);
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "REFUNDED", refunded_at: expect.any(String) });
    expect((await getOrder(orderId)).payment_status).toBe("REFUNDED");
    expect((await sim(`${paymentId}/refund`)).status).toBe(409);
    expect(await eventNames(app, paymentId)).toEqual(["payment.captured", "payment.refunded"]);
    const data = await app.prisma.event.findMany({ where: { resourceId: paymentId }, orderBy: { id: "asc" }, select: { data: true, resourceType: true } });
    expect(data).toEqual([
      { resourceType: "payment", data: { payment_id: paymentId, status: "CAPTURED" } },
      { resourceType: "payment", data: { payment_id: paymentId, status: "REFUNDED" } },
    ]);
  });

  it("PENDING -> FAILED; a failed payment cannot be captured or refunded", async () => {
    const { orderId, paymentId } = await acceptedWithMandate();
    expect((await sim(`${paymentId}/refund`)).status).toBe(409);
    expect((await sim(`${paymentId}/fail?remark=${encodeURIComponent("INSUFFICIENT FUNDS")}`)).status).toBe(200);
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "FAILED", provider_remark: "INSUFFICIENT FUNDS", failure_code: "bank_declined" });
    expect((await getOrder(orderId)).payment_status).toBe("FAILED");
    expect((await sim(`${paymentId}/capture`)).status).toBe(409);
    expect((await sim(`${paymentId}/refund`)).status).toBe(409);
    expect(await eventNames(app, paymentId)).toEqual(["payment.failed"]);
  });

  it("keeps the closed failure code the gateway reports; a code outside the list is a 400 that moves nothing", async () => {
    const { paymentId } = await acceptedWithMandate();
    const refused = await sim(`${paymentId}/fail?failure_code=card_stolen`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: "failure_code", reason: "invalid_value" })]);
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "PENDING", failure_code: null });

    expect((await sim(`${paymentId}/fail?failure_code=insufficient_funds`)).status).toBe(200);
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "FAILED", failure_code: "insufficient_funds" });
    expect(await app.prisma.payment.findUnique({ where: { id: paymentId }, select: { failureCode: true } })).toEqual({ failureCode: "insufficient_funds" });
    await expect(app.prisma.payment.update({ where: { id: paymentId }, data: { failureCode: "card_stolen" } })).rejects.toThrow(/payments_failure_code_check/);
  });

  it("refunds a captured purchase that the exchange rejects later (status sync)", async () => {
    const { orderId, paymentId } = await acceptedWithMandate();
    await sim(`${paymentId}/capture`);
    await app.services.sandboxExchange!.set("ORDER", orderId, "REJECTED", "RTA: SCHEME CLOSED FOR SUBSCRIPTION");
    await runTask(app, syncOrdersWithExchange, {});
    expect(await getOrder(orderId)).toMatchObject({
      status: "REJECTED", payment_status: "REFUNDED", failure_code: "exchange_rejected", provider_remark: "RTA: SCHEME CLOSED FOR SUBSCRIPTION",
    });
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "REFUNDED", provider_remark: "REFUNDED: ORDER REJECTED" });
    expect(await eventNames(app, orderId)).toEqual(["order.accepted", "order.rejected"]);
    expect(await eventNames(app, paymentId)).toEqual(["payment.captured", "payment.refunded"]);
  });

  it("a cancel records no refund: an ACCEPTED lump sum whose money is captured is refused and stays PAID", async () => {
    const first = await acceptedWithMandate();
    await sim(`${first.paymentId}/capture`);
    const cancel = await app.http("POST", `/api/orders/v1/${first.orderId}/cancel`, { token: ctx.token });
    expect([cancel.status, cancel.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(await getOrder(first.orderId)).toMatchObject({ status: "ACCEPTED", payment_status: "PAID" });
    expect((await getPayment(first.paymentId)).body).toMatchObject({ status: "CAPTURED", refunded_at: null });
    expect(await eventNames(app, first.paymentId)).toEqual(["payment.captured"]);
  });

  it("refunds at once money captured after the exchange rejected the order", async () => {
    const late = await acceptedWithMandate();
    await app.services.sandboxExchange!.set("ORDER", late.orderId, "REJECTED", "RTA: SCHEME CLOSED FOR SUBSCRIPTION");
    await runTask(app, syncOrdersWithExchange, {});
    expect((await getOrder(late.orderId)).payment_status).toBe("PENDING");
    expect((await sim(`${late.paymentId}/capture`)).status).toBe(200);
    expect((await getPayment(late.paymentId)).body).toMatchObject({ status: "REFUNDED", provider_remark: "REFUNDED: ORDER REJECTED" });
    expect((await getOrder(late.orderId)).payment_status).toBe("REFUNDED");
    expect(await eventNames(app, late.paymentId)).toEqual(["payment.captured", "payment.refunded"]);
  });

  it("settles from the gateway's report (periodic sync), once", async () => {
    const { orderId, paymentId } = await acceptedWithMandate();
    await runTask(app, initiatePayment, { payment_id: paymentId });
    await app.services.sandboxExchange!.set("PAYMENT", paymentId, "CAPTURED", "NACH DEBIT SUCCESSFUL");
    await runTask(app, syncPendingPayments, {});
    await runTask(app, syncPendingPayments, {});
    expect((await getPayment(paymentId)).body).toMatchObject({ status: "CAPTURED", provider_remark: "NACH DEBIT SUCCESSFUL" });
    expect((await getOrder(orderId)).payment_status).toBe("PAID");
    expect(await eventNames(app, paymentId)).toEqual(["payment.captured"]);
  });
});

describe("tenancy and bad input", () => {
  it("answers 404 for another distributor's payment and unknown ids; 400 for a bad id", async () => {
    const { paymentId } = await acceptedWithMandate();
    for (const res of [await getPayment(paymentId, ctx.otherToken), await sim(`${paymentId}/capture`, ctx.otherToken), await getPayment("pay_unknown")]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await getPayment("x".repeat(65))).status).toBe(400);
    expect((await getPayment(paymentId)).body.status).toBe("PENDING");
  });
});
