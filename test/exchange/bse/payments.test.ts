import { describe, expect, it } from "vitest";
import type { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { paymentFailureCodeFor } from "../../../src/integrations/exchange/bse/payments.js";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { registerInvestor } from "../../../src/domains/investors/jobs/register.js";
import { initiatePayment, syncPendingPayments } from "../../../src/domains/payments/jobs/gateway.js";
import { BANK_FORM_CSP } from "../../../src/pages/security.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { hurried } from "../../helpers/bse-double/hurried.js";
import { PAYMENT_PATH } from "../../helpers/bse-double/registrations.js";
import { investorBody } from "../../helpers/factories.js";
import { pendingInvestor } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { acceptedLink, LINK_SCHEME, lumpsumProposal, publicPath } from "../../helpers/order-links.js";

import { expectPageHeaders, sendPage } from "../../helpers/pages.js";

const BASE = "https://mf.example.in";
const env: Record<string, string> = {};
// The app keeps the double's 2-second call budget; only the calls scripted to hang get a short one (`hurried`).
const double = useBseDouble(env, { MF_PUBLIC_BASE_URL: BASE });
const app = useTestApp(env);
const bse = () => app.services.exchange as BseExchange;

/** A link whose lump sum of 2500.50 the exchange (the double) ACCEPTED, for an investor the exchange registered. */
async function acceptedAtExchange(body = investorBody()) {
  if (!(await app.prisma.scheme.findUnique({ where: { schemeCode: LINK_SCHEME } }))) await createBseScheme(app, double.current, LINK_SCHEME);
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token, body);
  await runTask(app, registerInvestor, { investor_id: investor.id });
  const { linkId, orderId } = await acceptedLink(app, token, lumpsumProposal(investor));
  const order = await app.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(order.status).toBe("ACCEPTED");
  return { token, investor, linkId, orderId, orderNo: order.exchangeOrderNumber! };
}
async function pay(ctx: { token: string; linkId: string }, json: Record<string, unknown>) {
  const paid = await app.http("POST", publicPath(ctx.linkId, "pay"), { token: ctx.token, json });
  expect(paid.status).toBe(201);
  return paid.body as { id: string; payment_url: string | null; status: string };
}
const paymentRow = (id: string) =>
  app.prisma.payment.findUniqueOrThrow({ where: { id }, select: { status: true, gatewayReference: true, providerRemark: true, failureCode: true, details: true } });
const pathOf = (url: string) => url.slice(BASE.length);

describe("payments through the BSE adapter (single payment API, flag 11) against the double", () => {
  it("UPI: the collect request goes to the investor's address from the registered account; the page shows the exchange's message; APPROVED captures", async () => {
    const ctx = await acceptedAtExchange();
    const payment = await pay(ctx, { mode: "UPI", vpa: "asha.rao@okhdfc" });
    expect(payment.payment_url).toBe(`${BASE}/links/${ctx.linkId}/payment`);
    const waiting = await sendPage(app, "GET", pathOf(payment.payment_url!));
    expect(waiting.status).toBe(200);
    expectPageHeaders(waiting.headers);
    expect(waiting.text).toContain('<meta http-equiv="refresh" content="2"/>');
    expect(waiting.text).toContain("Contacting the exchange");

    await runTask(app, initiatePayment, { payment_id: payment.id });
    const sent = double.current.registrations.payments.at(-1)!;
    expect(sent.body).toMatchObject({
      modeofpayment: "UPI", bankid: "HDF", accountnumber: "001234567890", ifsc: "HDFC0001234", vpaid: "asha.rao@okhdfc",
      ordernumber: ctx.orderNo, totalamount: "2500.50", clientcode: sent.clientCode, loopbackURL: "", mandateid: "",
    });
    const row = await paymentRow(payment.id);
    expect(row).toMatchObject({ status: "PENDING", gatewayReference: `BSE:${ctx.orderNo}` });
    expect(row.details).toMatchObject({ vpa: "a***@okhdfc", gateway_message: "PAYMENT INITIATED: APPROVE THE COLLECT REQUEST IN YOUR UPI APP" });
    expect(JSON.stringify(row.details)).not.toContain("asha.rao@okhdfc");
    const page = await sendPage(app, "GET", pathOf(payment.payment_url!));
    expect(page.text).toContain("APPROVE THE COLLECT REQUEST IN YOUR UPI APP");

    await runTask(app, syncPendingPayments, {});
    expect((await paymentRow(payment.id)).status).toBe("PENDING");
    double.current.registrations.paymentStatus.set(ctx.orderNo, "APPROVED (UPI)");
    await runTask(app, syncPendingPayments, {});
    expect(await paymentRow(payment.id)).toMatchObject({ status: "CAPTURED", providerRemark: "APPROVED (UPI)", failureCode: null });
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: ctx.orderId } })).paymentStatus).toBe("PAID");
    const after = await sendPage(app, "GET", pathOf(payment.payment_url!));
    expect([after.status, after.headers.get("location")]).toEqual([303, `/links/${ctx.linkId}`]);
  });

  it("net banking: DIRECT with the bank's id and the link's page as the loopback; the bank's form is shown on our page; REJECTED fails", async () => {
    const ctx = await acceptedAtExchange();
    const payment = await pay(ctx, { mode: "NETBANKING", bank_account_id: ctx.investor.bankAccountId });
    await runTask(app, initiatePayment, { payment_id: payment.id });
    expect(double.current.registrations.payments.at(-1)!.body).toMatchObject({ modeofpayment: "DIRECT", bankid: "HDF", vpaid: "", loopbackURL: `${BASE}/links/${ctx.linkId}` });
    const row = await paymentRow(payment.id);
    expect(JSON.stringify(row.details)).not.toContain("<html");
    const page = await sendPage(app, "GET", pathOf(payment.payment_url!));
    expect(page.status).toBe(200);
    expect([page.headers.get("content-security-policy"), page.headers.get("x-frame-options"), page.headers.get("cache-control")]).toEqual([BANK_FORM_CSP, "DENY", "no-store"]);
    // Our page with the bank's form alone (test/pages/bank-page.test.ts), never the exchange's HTML.
    expect(page.text).toContain(`<form method="post" action="https://netbanking.bank.example/pay"><input type="hidden" name="ref" value="${ctx.orderNo}"/>`);
    expect(page.text).not.toContain("<script");

    double.current.registrations.paymentStatus.set(ctx.orderNo, "REJECTED (NET BANKING)");
    await runTask(app, syncPendingPayments, {});
    expect(await paymentRow(payment.id)).toMatchObject({ status: "FAILED", providerRemark: "REJECTED (NET BANKING)", failureCode: "bank_declined" });
  });

  it("the exchange's refusal fails the payment with a closed failure code; a bank the exchange has no code for is not sent", async () => {
    const ctx = await acceptedAtExchange();
    double.current.registrations.rejectNext("PAYMENT", "INVALID CLIENT ACCOUNT NUMBER");
    const refused = await pay(ctx, { mode: "UPI", vpa: "asha@okhdfc" });
    await runTask(app, initiatePayment, { payment_id: refused.id });
    expect(await paymentRow(refused.id)).toMatchObject({ status: "FAILED", gatewayReference: null, providerRemark: "INVALID CLIENT ACCOUNT NUMBER", failureCode: "tpv_failed" });

    const unknownBank = await acceptedAtExchange(investorBody({ bank_accounts: [{ account_type: "SB", account_number: "778899001122", ifsc: "ZZZB0001234", is_primary: true }] }));
    const before = double.current.registrations.payments.length;
    const notSent = await pay(unknownBank, { mode: "UPI", vpa: "asha@okzzz" });
    await runTask(app, initiatePayment, { payment_id: notSent.id });
    expect(await paymentRow(notSent.id)).toMatchObject({
      status: "FAILED", providerRemark: "NOT SENT TO THE EXCHANGE: bankAccount.ifsc has no UPI bank code of the exchange", failureCode: "bank_declined",
    });
    expect(double.current.registrations.payments.length).toBe(before);
  });

  it("a payment refused for our member is unavailable (the job retries), not FAILED; once the member is fixed it is started", async () => {
    const ctx = await acceptedAtExchange();
    double.current.registrations.rejectNext("PAYMENT", "FAILED: INVALID MEMBER CODE");
    const payment = await pay(ctx, { mode: "UPI", vpa: "asha@okhdfc" });
    const error = await runTask(app, initiatePayment, { payment_id: payment.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE single payment refused: FAILED: INVALID MEMBER CODE");
    expect((await paymentRow(payment.id)).status).not.toBe("FAILED");
    await runTask(app, initiatePayment, { payment_id: payment.id }, { attempts: 2 });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "PENDING", failureCode: null });
  });

  it("failure codes from the text", () => {
    expect(paymentFailureCodeFor("FAILED: INVALID VPA ID")).toBe("invalid_vpa");
    expect(paymentFailureCodeFor("REJECTED (UPI) INSUFFICIENT BALANCE")).toBe("insufficient_funds");
    expect(paymentFailureCodeFor("TRANSACTION CANCELLED BY USER")).toBe("user_cancelled");
    expect(paymentFailureCodeFor("REJECTED (UPI) COLLECT REQUEST EXPIRED")).toBe("payment_expired");
    expect(paymentFailureCodeFor("REJECTED (NET BANKING)")).toBe("bank_declined");
  });

  it("a timeout is ExchangeUnavailableError; a payment the exchange started before the answer was lost is kept on the retry, never started twice", async () => {
    const ctx = await acceptedAtExchange();
    const payment = await pay(ctx, { mode: "UPI", vpa: "asha@okhdfc" });
    double.current.failNext(PAYMENT_PATH, "timeout-before");
    await expect(runTask(app, initiatePayment, { payment_id: payment.id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(await paymentRow(payment.id)).toMatchObject({ status: "PENDING", gatewayReference: null });

    // The exchange starts the payment, the answer never comes; the retry is told ORDER NUMBER ALREADY INITIATED.
    double.current.failNext(PAYMENT_PATH, "timeout");
    await expect(runTask(app, initiatePayment, { payment_id: payment.id }, { attempts: 2, services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    await runTask(app, initiatePayment, { payment_id: payment.id }, { attempts: 3 });
    expect(await paymentRow(payment.id)).toMatchObject({ status: "PENDING", gatewayReference: `BSE:${ctx.orderNo}` });
  });

  it("settlement: the upload session expiring mid-call is renewed once; MANDATE and CHEQUE payments are not sent to the payment API", async () => {
    const ctx = await acceptedAtExchange();
    const payment = await pay(ctx, { mode: "UPI", vpa: "asha@okhdfc" });
    await runTask(app, initiatePayment, { payment_id: payment.id });
    double.current.registrations.paymentStatus.set(ctx.orderNo, "APPROVED (UPI)");
    const logins = double.current.sessions.logins.upload;
    double.current.failNext("MFAPI", "expire-session");
    expect(await bse().paymentStatus([payment.id])).toEqual([{ paymentId: payment.id, status: "CAPTURED", remark: "APPROVED (UPI)" }]);
    expect(double.current.sessions.logins.upload).toBe(logins + 1);

    const before = double.current.registrations.payments.length;
    const request = { paymentId: "pay_direct", clientCode: "X", orderIds: [ctx.orderId], amount: "2500.50", mandateId: null, vpa: null, bankAccount: null, returnUrl: null };
    expect(await bse().createPayment({ ...request, mode: "MANDATE" })).toEqual({ status: "PENDING", paymentReference: `BSE:${ctx.orderNo}`, page: null });
    expect(await bse().createPayment({ ...request, mode: "CHEQUE" })).toEqual({ status: "PENDING", paymentReference: `BSE:${ctx.orderNo}`, page: null });
    expect(double.current.registrations.payments.length).toBe(before);
  });

  it("logs carry neither PANs, VPAs, account numbers, the password nor any session", () => {
    const logs = app.logs.join("\n");
    expect(logs).toContain("BSE single payment answered");
    expect(logs).not.toMatch(/[A-Z]{5}\d{4}[A-Z]/);
    for (const secret of ["asha.rao@okhdfc", "001234567890", double.current.credentials.password, ...double.current.sessions.issued]) expect(logs).not.toContain(secret);
  });
});
