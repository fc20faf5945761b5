import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { initiatePayment } from "../../src/domains/payments/jobs/gateway.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { eventNames } from "../helpers/orders.js";
import { LINK_SCHEME, acceptedLink, createLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const sim = (path: string) => app.http("GET", `/api/simulation/${path}`, { token: ctx.token });
const pay = (linkId: string, json: unknown, token = ctx.token) => app.http("POST", publicPath(linkId, "pay"), { token, json });

describe("the whole flow: create, open, confirm, pay, capture", () => {
  it("creates an ACTIVE link (exact body), readable and listed by its distributor, with its expiry job at expires_at", async () => {
    const before = Date.now();
    const res = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { client_ref: "link-flow-1" }));
    expect(res.status).toBe(201);
    const id: string = res.body.id;
    expect(id).toMatch(/^lnk_[0-9a-z]{32}$/);
    expect(res.body).toEqual({
      id, url: `${app.baseUrl}/links/${id}`, status: "ACTIVE", expires_at: expect.stringMatching(ISO), created_at: expect.stringMatching(ISO),
      client_ref: "link-flow-1", order_type: "LUMPSUM_PURCHASE", order_id: null, payment_id: null,
    });
    const expiresAt = Date.parse(res.body.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(72 * 3600_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(72 * 3600_000);

    const row = await app.prisma.orderLink.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "ACTIVE", investorId: ctx.investor.id, investmentAccountId: ctx.investor.account, orderId: null, consentAt: null });
    expect(row.basketId).toMatch(/^bsk_/);
    expect(row.proposal).toEqual(lumpsumProposal(ctx.investor, { client_ref: "link-flow-1" }));
    const [job] = await app.prisma.$queryRawUnsafe<Array<{ key: string; run_at: Date }>>(
      `SELECT j.key, j.run_at FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'order_links__expire' AND j.payload->>'link_id' = $1`, id);
    expect(job).toEqual({ key: `order_links__expire:${id}`, run_at: new Date(res.body.expires_at) });

    expect((await app.http("GET", `/api/order-links/v1/${id}`, { token: ctx.token })).body).toEqual(res.body);
    const list = await app.http("GET", "/api/order-links/v1?status=ACTIVE&limit=5", { token: ctx.token });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toEqual(res.body);
  });

  it("confirms, accepts, pays by UPI, captures: the link ends PAID and the public view says so at each step", async () => {
    const created = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { client_ref: "link-flow-2", remarks: "for ABCDE1234F" }));
    const id: string = created.body.id;

    const opened = await app.http("GET", publicPath(id));
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      id, status: "ACTIVE", expires_at: created.body.expires_at, order_type: "LUMPSUM_PURCHASE",
      scheme_code: LINK_SCHEME, scheme_name: "Test Flexi Cap Fund - Growth", amount: 2500.5, units: null, all_units: false,
      sip: null, stp: null, swp: null, switch: null,
      investor_name: "A*** R**", investor_pan: `${ctx.investor.pan.slice(0, 2)}XXXXX${ctx.investor.pan.slice(-3)}`,
      distributor_name: "Mehta Advisors", distributor_arn: ctx.arn,
      order_id: null, order_status: null, payment_status: null, can_pay: false, latest_payment: null,
    });
    expect(opened.text).not.toContain(ctx.investor.pan);
    expect((await app.prisma.orderLink.findUniqueOrThrow({ where: { id } })).proposal).toMatchObject({ remarks: "for ABXXXXX34F" });

    const confirmed = await app.http("POST", publicPath(id, "confirm"), { headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) TestPhone" } });
    expect(confirmed.status).toBe(201);
    const orderId: string = confirmed.body.id;
    expect(orderId).toMatch(/^ord_/);
    const simOrder = `${app.baseUrl}/api/simulation/orders/v1/${orderId}`;
    expect(confirmed.body).toEqual({
      id: orderId, client_ref: "link-flow-2", created_at: expect.stringMatching(ISO), order_type: "LUMPSUM_PURCHASE", status: "PENDING",
      simulation_links: { accept: `${simOrder}/accept`, reject: `${simOrder}/reject`, fail: `${simOrder}/fail`, allot: `${simOrder}/allot` },
    });
    const link = await app.prisma.orderLink.findUniqueOrThrow({ where: { id } });
    expect(link).toMatchObject({ status: "CONFIRMED", orderId, consentIp: "127.0.0.1", consentUserAgent: "Mozilla/5.0 (Linux; Android 14) TestPhone" });
    expect(link.consentAt).toBeInstanceOf(Date);
    const order = await app.http("GET", `/api/orders/v1/${orderId}`, { token: ctx.token });
    expect(order.body).toMatchObject({ status: "PENDING", payment_status: "UNPAID", amount: 2500.5, scheme_code: LINK_SCHEME, remarks: "for ABXXXXX34F", client_ref: "link-flow-2" });
    expect(await queuedJobs(app, "orders__dispatch", "order_id", orderId)).toHaveLength(1);

    const repeat = await app.http("POST", publicPath(id, "confirm"));
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(confirmed.body);

    expect((await pay(id, { mode: "UPI", vpa: "asha@okhdfc" })).status).toBe(409);
    await runTask(app, dispatchOrder, { order_id: orderId });
    expect((await app.http("GET", publicPath(id))).body).toMatchObject({
      status: "CONFIRMED", order_id: orderId, order_status: "ACCEPTED", payment_status: "UNPAID", can_pay: true, latest_payment: null,
    });
    expect((await app.http("GET", `/api/order-links/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "CONFIRMED", order_id: orderId, payment_id: null });

    const paid = await pay(id, { mode: "UPI", vpa: "asha.rao@okhdfc" });
    expect(paid.status).toBe(201);
    const paymentId: string = paid.body.id;
    const simPay = `${app.baseUrl}/api/simulation/payments/v1/${paymentId}`;
    expect(paid.body).toEqual({
      id: paymentId, amount: 2500.5, basket_id: link.basketId, payment_url: `${app.baseUrl}/sandbox/payments/${paymentId}`,
      simulation_links: { capture: `${simPay}/capture`, fail: `${simPay}/fail` }, status: "PENDING",
    });
    expect(paid.headers.get("ratelimit-limit")).toBe("200");
    const payment = await app.http("GET", `/api/payments/v1/${paymentId}`, { token: ctx.token });
    expect(payment.body).toMatchObject({ order_id: orderId, basket_id: link.basketId, mode: "UPI", vpa: "a***@okhdfc", status: "PENDING", failure_code: null });
    expect(await queuedJobs(app, "payments__initiate", "payment_id", paymentId)).toHaveLength(1);
    await runTask(app, initiatePayment, { payment_id: paymentId });

    const again = await pay(id, { mode: "NETBANKING", bank_account_id: ctx.investor.bankAccountId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paid.body);
    expect(await app.prisma.payment.count({ where: { orderId } })).toBe(1);

    expect((await sim(`payments/v1/${paymentId}/capture`)).status).toBe(200);
    expect(await app.prisma.orderLink.findUniqueOrThrow({ where: { id }, select: { status: true } })).toEqual({ status: "PAID" });
    expect((await app.http("GET", publicPath(id))).body).toMatchObject({
      status: "PAID", order_status: "ACCEPTED", payment_status: "PAID", can_pay: false,
      latest_payment: { id: paymentId, mode: "UPI", amount: 2500.5, status: "CAPTURED", failure_code: null },
    });
    expect((await app.http("GET", `/api/order-links/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "PAID", payment_id: paymentId });
    const after = await pay(id, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(after.status).toBe(409);
    expect(after.body.error.code).toBe("INVALID_STATE");
    expect(await eventNames(app, paymentId)).toEqual(["payment.captured"]);
  });

  it("after a FAILED payment (with its failure code) a new attempt joins the same basket", async () => {
    const { linkId, orderId } = await acceptedLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const first = await pay(linkId, { mode: "NETBANKING", bank_account_id: ctx.investor.bankAccountId });
    expect(first.status).toBe(201);
    expect((await sim(`payments/v1/${first.body.id}/fail?failure_code=user_cancelled`)).status).toBe(200);
    expect((await app.http("GET", publicPath(linkId))).body).toMatchObject({
      status: "CONFIRMED", payment_status: "FAILED", can_pay: true,
      latest_payment: { id: first.body.id, mode: "NETBANKING", status: "FAILED", failure_code: "user_cancelled" },
    });

    const second = await pay(linkId, { mode: "UPI", vpa: "asha@okicici" });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.basket_id).toBe(first.body.basket_id);
    const payments = await app.prisma.payment.findMany({ where: { orderId }, orderBy: { id: "asc" }, select: { status: true, basketId: true, mode: true, failureCode: true } });
    expect(payments).toEqual([
      { status: "FAILED", basketId: first.body.basket_id, mode: "NETBANKING", failureCode: "user_cancelled" },
      { status: "PENDING", basketId: first.body.basket_id, mode: "UPI", failureCode: null },
    ]);
  });

  it("pays by MANDATE and by CHEQUE without a payment_url", async () => {
    const withMandate = await linkingDistributor(app, { mandate: true });
    const { linkId } = await acceptedLink(app, withMandate.token, lumpsumProposal(withMandate.investor));
    const byMandate = await pay(linkId, { mode: "MANDATE", mandate_id: withMandate.mandateId }, withMandate.token);
    expect(byMandate.status).toBe(201);
    expect(byMandate.body).toMatchObject({ payment_url: null, status: "PENDING", amount: 2500.5 });
    expect(await app.prisma.payment.findUniqueOrThrow({ where: { id: byMandate.body.id }, select: { mode: true, mandateId: true } }))
      .toEqual({ mode: "MANDATE", mandateId: withMandate.mandateId });

    const cheque = await acceptedLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const byCheque = await pay(cheque.linkId, { mode: "CHEQUE", cheque: { number: "123456", date: "2026-11-20", bank_name: "HDFC Bank" } });
    expect(byCheque.status).toBe(201);
    expect(byCheque.body.payment_url).toBeNull();
    expect(await app.prisma.payment.findUniqueOrThrow({ where: { id: byCheque.body.id }, select: { mode: true, details: true } }))
      .toEqual({ mode: "CHEQUE", details: { cheque: { number: "XX3456", date: "2026-11-20", bank_name: "HDFC Bank" } } });
  });
});
