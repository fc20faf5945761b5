import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { useTestApp, type TestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { createLink, LINK_SCHEME, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";
import { expectPageHeaders, formOf, sameOrigin, sendPage, tokenIn, type PageRequest } from "../helpers/pages.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;
let withMandate: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
  withMandate = await linkingDistributor(app, { mandate: true, name: "Iyer Wealth" });
});

const ISO_IST = /\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m IST/;
const linkPath = (linkId: string, action = "") => `/links/${linkId}${action ? `/${action}` : ""}`;

/** A browser's visit: the page, and the form cookie and token it handed out. */
async function open(target: TestApp, linkId: string, cookie?: string) {
  const page = await sendPage(target, "GET", linkPath(linkId), cookie ? { headers: { cookie: `mf_form=${cookie}` } } : {});
  // A page without a form (waiting, paid, gone) renders no token.
  if (cookie) return { page, cookie, token: page.text.includes('name="form_token"') ? tokenIn(page.text) : "" };
  return { page, ...formOf(page.headers, page.text) };
}

const post = (target: TestApp, linkId: string, action: string, session: { cookie: string; token: string }, fields: Record<string, string> = {}, request: PageRequest = {}) =>
  sendPage(target, "POST", linkPath(linkId, action), { form: { form_token: session.token, ...fields }, headers: sameOrigin(session.cookie), ...request });

async function newLink(owner = ctx, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await createLink(app, owner.token, lumpsumProposal(owner.investor, overrides));
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A link confirmed on its page and accepted by the sandbox exchange (its dispatch job run as the worker would). */
async function acceptedOnPage(owner = ctx) {
  const linkId = await newLink(owner);
  const session = await open(app, linkId);
  expect((await post(app, linkId, "confirm", session)).status).toBe(303);
  const { orderId } = await linkState(linkId);
  await runTask(app, dispatchOrder, { order_id: orderId! });
  return { linkId, orderId: orderId!, session };
}

/** Everything a page action may change: the link, its order, the order's payments. */
async function linkState(linkId: string) {
  const link = await app.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId } });
  const payments = link.orderId
    ? await app.prisma.payment.findMany({ where: { orderId: link.orderId }, orderBy: { id: "asc" }, select: { id: true, status: true, mode: true, basketId: true, failureCode: true, details: true } })
    : [];
  return { status: link.status, orderId: link.orderId, consentAt: link.consentAt, payments, orders: await app.prisma.order.count({ where: { investorId: link.investorId } }) };
}

describe("an ACTIVE link's page", () => {
  it("shows the proposal masked (scheme, amount, order type, investor, distributor and ARN, expiry) and a Confirm form; no script, the page headers", async () => {
    const linkId = await newLink();
    const { page, token } = await open(app, linkId);
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    expect(page.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(page.headers.get("set-cookie")).toMatch(/^mf_form=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(page.headers.get("ratelimit-limit")).toBe("200");
    expect(page.text).toContain("<title>Confirm your order</title>");
    expect(page.text).toContain(
      `<dl class="proposal"><dt>Scheme</dt><dd>Test Flexi Cap Fund - Growth (${LINK_SCHEME})</dd><dt>Order</dt><dd>One-time purchase</dd>` +
        `<dt>Amount</dt><dd>₹2,500.50</dd><dt>Investor</dt><dd>A*** R**, PAN ${ctx.investor.pan.slice(0, 2)}XXXXX${ctx.investor.pan.slice(-3)}</dd>` +
        `<dt>Distributor</dt><dd>Mehta Advisors, ${ctx.arn}</dd><dt>Link expires</dt><dd>`,
    );
    expect(page.text).toMatch(new RegExp(`<dt>Link expires</dt><dd>${ISO_IST.source}</dd></dl>`));
    expect(page.text).toContain(`<form method="post" action="/links/${linkId}/confirm"><input type="hidden" name="form_token" value="${token}"/><button type="submit">Confirm order</button></form>`);
    expect(page.text).not.toMatch(/<script|style=|<style|http-equiv/i);
    // Nothing personal in clear: not the PAN, the name, the contact details or the bank account.
    for (const secret of [ctx.investor.pan, "Asha Rao", "Asha", "asha.rao@example.in", "9876543210", "001234567890"]) expect(page.text).not.toContain(secret);
  });

  it("is the same page on a second visit with the browser's cookie (no new cookie, the same token)", async () => {
    const linkId = await newLink();
    const first = await open(app, linkId);
    const again = await open(app, linkId, first.cookie);
    expect(again.page.headers.get("set-cookie")).toBeNull();
    expect(again.token).toBe(first.token);
  });

  it("Confirm places the order with the consent (client address, user agent) and redirects (303) to the page, which waits for the exchange", async () => {
    const linkId = await newLink();
    const session = await open(app, linkId);
    const confirmed = await post(app, linkId, "confirm", session, {}, { headers: { ...sameOrigin(session.cookie), "user-agent": "Mozilla/5.0 (Linux; Android 14) LinkPhone" } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe(`/links/${linkId}`);
    expectPageHeaders(confirmed.headers);
    const link = await app.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId } });
    expect(link).toMatchObject({ status: "CONFIRMED", consentIp: "127.0.0.1", consentUserAgent: "Mozilla/5.0 (Linux; Android 14) LinkPhone" });
    expect(await app.prisma.order.findUniqueOrThrow({ where: { id: link.orderId! }, select: { status: true, paymentStatus: true } })).toEqual({ status: "PENDING", paymentStatus: "UNPAID" });

    const waiting = await open(app, linkId, session.cookie);
    expect(waiting.page.status).toBe(200);
    expect(waiting.page.text).toContain('<meta http-equiv="refresh" content="3"/>');
    expect(waiting.page.text).toContain("<h1 id=\"title\">Waiting for the exchange</h1>");
    expect(waiting.page.text).toContain("This page refreshes by itself until the exchange accepts it.");
    expect(waiting.page.text).toContain(`<a class="button secondary" href="/links/${linkId}">Refresh</a>`);
    expect(waiting.page.text).not.toContain("<form");
    expect(waiting.page.text).not.toContain("Link expires");

    // A second Confirm (another tab) changes nothing and leads to the same page.
    const before = await linkState(linkId);
    const again = await post(app, linkId, "confirm", session);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`/links/${linkId}`);
    expect(await linkState(linkId)).toEqual(before);
  });

  it("a proposal that no longer passes is answered 400 with the details on the page; the link stays ACTIVE", async () => {
    const owner = await linkingDistributor(app);
    const linkId = await newLink(owner);
    const session = await open(app, linkId);
    await app.prisma.investor.update({ where: { id: owner.investor.id }, data: { status: "PENDING" } });
    const res = await post(app, linkId, "confirm", session);
    expect(res.status).toBe(400);
    expectPageHeaders(res.headers);
    expect(res.text).toContain('<div class="outcome bad" role="alert" id="confirm-problem"><p>This order can no longer be placed as proposed:</p><ul><li>investment_account_id: ');
    expect(res.text).toContain(`Ask Mehta Advisors (${owner.arn}) for a new link.`);
    expect(res.text).toContain(`action="/links/${linkId}/confirm"`);
    expect(await linkState(linkId)).toMatchObject({ status: "ACTIVE", orderId: null, consentAt: null });
  });
});

describe("paying on the page", () => {
  it("once ACCEPTED offers UPI, net banking from the investor's accounts (masked), the REGISTERED mandate and cheque", async () => {
    const { linkId, session } = await acceptedOnPage(withMandate);
    const { page } = await open(app, linkId, session.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1 id=\"title\">Pay for your order</h1>");
    expect(page.text).toContain("<h2>Choose how to pay</h2>");
    expect(page.text).not.toContain("http-equiv");
    const action = `action="/links/${linkId}/pay"`;
    expect(page.text).toContain(`<details class="mode" open=""><summary>UPI</summary><form method="post" ${action} id="pay-upi"><input type="hidden" name="form_token" value="${session.token}"/><input type="hidden" name="mode" value="UPI"/>`);
    expect(page.text).toContain('<input id="vpa" name="vpa" type="text" value="" autocomplete="off" inputmode="email"/>');
    expect(page.text).toContain("<button type=\"submit\">Pay ₹2,500.50 by UPI</button>");
    expect(page.text).toContain(
      `<label class="choice"><input type="radio" name="bank_account_id" value="${withMandate.investor.bankAccountId}" checked=""/><span>Savings account XXXXXXXX7890 <span class="muted">IFSC HDFC0001234</span></span></label>`,
    );
    expect(page.text).toContain(`<input type="radio" name="mandate_id" value="${withMandate.mandateId}" checked=""/><span>Up to ₹`);
    expect(page.text).toContain('<input id="cheque_date" name="cheque_date" type="date" value="" autocomplete="off"/>');
    expect(page.text).not.toContain("001234567890");

    const noMandate = await acceptedOnPage();
    const other = await open(app, noMandate.linkId, noMandate.session.cookie);
    expect(other.page.text).toContain('id="pay-netbanking"');
    expect(other.page.text).not.toContain('id="pay-mandate"');
  });

  it("UPI: the payment starts through the payment service and the browser goes to payment_url (303); the page then shows it in progress", async () => {
    const { linkId, orderId, session } = await acceptedOnPage();
    const paid = await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha.rao@okhdfc" });
    expect(paid.status).toBe(303);
    expectPageHeaders(paid.headers);
    const { payments } = await linkState(linkId);
    expect(payments).toEqual([{ id: expect.stringMatching(/^pay_/), status: "PENDING", mode: "UPI", basketId: expect.stringMatching(/^bsk_/), failureCode: null, details: { vpa: "a***@okhdfc", vpa_encrypted: expect.stringMatching(/^v1:/) } }]);
    const paymentId = payments[0]!.id;
    expect(paid.headers.get("location")).toBe(`${app.baseUrl}/sandbox/payments/${paymentId}`);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus).toBe("PENDING");

    const { page } = await open(app, linkId, session.cookie);
    expect(page.text).toContain("<h1 id=\"title\">Payment in progress</h1>");
    expect(page.text).toContain("Your payment of ₹2,500.50 by UPI is waiting for confirmation.");
    expect(page.text).toContain(`<a class="button" href="/sandbox/payments/${paymentId}">Continue to payment</a>`);
    expect(page.text).not.toContain("<form");

    // A second post (the back button) is the same payment again: one payment, the same payment page.
    const again = await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha.rao@okhdfc" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`${app.baseUrl}/sandbox/payments/${paymentId}`);
    expect((await linkState(linkId)).payments).toHaveLength(1);
  });

  it("MANDATE and CHEQUE start the payment and return to the link's page", async () => {
    const byMandate = await acceptedOnPage(withMandate);
    const mandate = await post(app, byMandate.linkId, "pay", byMandate.session, { mode: "MANDATE", mandate_id: withMandate.mandateId });
    expect(mandate.status).toBe(303);
    expect(mandate.headers.get("location")).toBe(`/links/${byMandate.linkId}`);
    expect((await linkState(byMandate.linkId)).payments).toMatchObject([{ status: "PENDING", mode: "MANDATE" }]);
    expect((await open(app, byMandate.linkId, byMandate.session.cookie)).page.text).toContain("Your payment of ₹2,500.50 by MANDATE is waiting for confirmation. Your bank debits the mandate");

    const byCheque = await acceptedOnPage();
    const cheque = await post(app, byCheque.linkId, "pay", byCheque.session, { mode: "CHEQUE", cheque_number: "123456", cheque_date: "2026-11-20", cheque_bank_name: "HDFC Bank" });
    expect(cheque.status).toBe(303);
    expect(cheque.headers.get("location")).toBe(`/links/${byCheque.linkId}`);
    expect((await linkState(byCheque.linkId)).payments).toMatchObject([{ status: "PENDING", mode: "CHEQUE", details: { cheque: { number: "XX3456", date: "2026-11-20", bank_name: "HDFC Bank" } } }]);
    const { page } = await open(app, byCheque.linkId, byCheque.session.cookie);
    expect(page.text).not.toContain("Continue to payment");
  });

  const refused: Array<[string, Record<string, string>, string, string]> = [
    ["an invalid UPI ID", { mode: "UPI", vpa: "not a vpa" }, "vpa", "UPI ID must be a UPI address handle@psp"],
    ["no UPI ID", { mode: "UPI", vpa: "" }, "vpa", "UPI ID is required for UPI"],
    ["another investor's bank account", { mode: "NETBANKING", bank_account_id: "bac_not_theirs" }, "bank_account_id", "Bank account is not a bank account of the investor: choose one of the investor&#39;s bank accounts"],
    ["a cheque number of 5 digits", { mode: "CHEQUE", cheque_number: "12345", cheque_date: "2026-11-20", cheque_bank_name: "HDFC Bank" }, "cheque_number", "Cheque number must be 6 digits"],
  ];

  it.each(refused)("%s: 400, the detail beside its field, the entered values kept, nothing paid", async (_name, fields, field, message) => {
    const { linkId, session } = await acceptedOnPage();
    const before = await linkState(linkId);
    const res = await post(app, linkId, "pay", session, fields);
    expect(res.status).toBe(400);
    expectPageHeaders(res.headers);
    expect(res.text).toContain('<div class="outcome bad" role="alert" id="payment-problem"><p>The payment could not be started. Check the details below.</p></div>');
    expect(res.text).toContain(`<p class="field-error" id="${field}-error">${message}</p>`);
    expect(res.text).toContain(`<details class="mode" open=""><summary>`);
    if (fields.mode === "UPI") expect(res.text).toContain(`<input id="vpa" name="vpa" type="text" value="${fields.vpa}" autocomplete="off" inputmode="email" aria-invalid="true" aria-describedby="vpa-error"/>`);
    if (fields.mode === "CHEQUE") {
      expect(res.text).toContain('value="12345"');
      expect(res.text).toContain('<input id="cheque_date" name="cheque_date" type="date" value="2026-11-20" autocomplete="off"/>');
      expect(res.text).toContain('value="HDFC Bank"');
      expect(res.text).toContain('<details class="mode" open=""><summary>Cheque</summary>');
    }
    expect(await linkState(linkId)).toEqual(before);
  });

  it("an unknown mode is 400 with the detail above the forms", async () => {
    const { linkId, session } = await acceptedOnPage();
    const res = await post(app, linkId, "pay", session, { mode: "BITCOIN" });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="payment-problem"><p>The payment could not be started\. Check the details below\.<\/p><ul><li>mode: [^<]+<\/li><\/ul><\/div>/);
    expect((await linkState(linkId)).payments).toEqual([]);
  });

  it("before the exchange has accepted the order: the 409 page with a way back, nothing paid", async () => {
    const linkId = await newLink();
    const session = await open(app, linkId);
    await post(app, linkId, "confirm", session);
    const res = await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(res.status).toBe(409);
    expectPageHeaders(res.headers);
    expect(res.text).toContain("<h1 id=\"title\">This can no longer be done</h1>");
    expect(res.text).toContain("The order is PENDING; it can be paid once the exchange has ACCEPTED it");
    expect(res.text).toContain(`<a class="button" href="/links/${linkId}">Back to your order</a>`);
    expect((await linkState(linkId)).payments).toEqual([]);

    const active = await newLink();
    const fresh = await open(app, active);
    expect((await post(app, active, "pay", fresh, { mode: "UPI", vpa: "asha@okhdfc" })).status).toBe(409);
    expect(await linkState(active)).toMatchObject({ status: "ACTIVE", orderId: null });
  });

  it("a FAILED payment shows its reason in words and a Try again that starts a new attempt in the same basket", async () => {
    const { linkId, session } = await acceptedOnPage();
    await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha@okhdfc" });
    const [first] = (await linkState(linkId)).payments;
    expect((await app.http("GET", `/api/simulation/payments/v1/${first!.id}/fail?failure_code=insufficient_funds`, { token: ctx.token })).status).toBe(200);

    const { page } = await open(app, linkId, session.cookie);
    expect(page.text).toContain('<p class="outcome bad" role="status" id="payment-failed">The payment of ₹2,500.50 by UPI failed. The account did not have enough money.</p><h2>Try again</h2>');
    const retried = await post(app, linkId, "pay", session, { mode: "NETBANKING", bank_account_id: ctx.investor.bankAccountId });
    expect(retried.status).toBe(303);
    const { payments } = await linkState(linkId);
    expect(payments.map((p) => [p.status, p.mode, p.basketId])).toEqual([["FAILED", "UPI", first!.basketId], ["PENDING", "NETBANKING", first!.basketId]]);
    expect(retried.headers.get("location")).toBe(`${app.baseUrl}/sandbox/payments/${payments[1]!.id}`);
  });

  it("a captured payment: the page says paid; another pay post is the 409 page", async () => {
    const { linkId, session } = await acceptedOnPage();
    await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha@okhdfc" });
    const [payment] = (await linkState(linkId)).payments;
    await app.http("GET", `/api/simulation/payments/v1/${payment!.id}/capture`, { token: ctx.token });
    const { page } = await open(app, linkId, session.cookie);
    expect(page.text).toContain("<h1 id=\"title\">Paid</h1>");
    expect(page.text).toContain(`<p class="outcome good" role="status">Paid. We received ₹2,500.50 by UPI. Your units will be allotted by the fund house.</p><p class="muted">Payment reference: ${payment!.id}</p>`);
    expect(page.text).not.toContain("<form");
    const again = await post(app, linkId, "pay", session, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(again.status).toBe(409);
    expect(again.text).toContain("The order&#39;s payment is CAPTURED already; there is nothing left to pay");
    expect((await linkState(linkId)).status).toBe("PAID");
  });

  it("a REJECTED order is explained: nothing to pay, who to contact", async () => {
    const linkId = await newLink();
    const session = await open(app, linkId);
    await post(app, linkId, "confirm", session);
    const { orderId } = await linkState(linkId);
    expect((await app.http("GET", `/api/simulation/orders/v1/${orderId}/reject`, { token: ctx.token })).status).toBe(200);
    const { page } = await open(app, linkId, session.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1 id=\"title\">This order was not placed</h1>");
    expect(page.text).toContain(`The exchange rejected this order. No money was taken for it. Contact Mehta Advisors (${ctx.arn}) if you still`);
    expect(page.text).not.toContain("<form");
  });
});

describe("links that are gone or unknown", () => {
  it("an expired link is the 410 page; a Confirm posted from the page before it expired is 410 too, nothing placed", async () => {
    const linkId = await newLink();
    const session = await open(app, linkId);
    await app.prisma.orderLink.update({ where: { id: linkId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { page } = await open(app, linkId, session.cookie);
    expect(page.status).toBe(410);
    expectPageHeaders(page.headers);
    expect(page.text).toContain("<h1 id=\"title\">This link has expired</h1>");
    expect(page.text).toMatch(new RegExp(`It expired on ${ISO_IST.source} and the order was not placed\\. Ask Mehta Advisors \\(${ctx.arn}\\) for a new link\\.`));
    expect(page.text).not.toContain("<form");

    const before = await linkState(linkId);
    const confirm = await post(app, linkId, "confirm", session);
    expect(confirm.status).toBe(410);
    expectPageHeaders(confirm.headers);
    expect(confirm.text).toContain("This link has expired");
    expect(await linkState(linkId)).toEqual(before);
    expect(before).toMatchObject({ orderId: null, consentAt: null });
  });

  it("a cancelled link is the 410 page", async () => {
    const linkId = await newLink();
    expect((await app.http("POST", `/api/order-links/v1/${linkId}/cancel`, { token: ctx.token })).status).toBe(200);
    const res = await sendPage(app, "GET", linkPath(linkId));
    expect(res.status).toBe(410);
    expectPageHeaders(res.headers);
    expect(res.text).toContain("<h1 id=\"title\">This link was cancelled</h1>");
    expect(res.text).toContain(`Mehta Advisors (${ctx.arn}) cancelled this order proposal. Nothing was ordered and nothing was paid.`);
  });

  it("an unknown link is the 404 page, never echoing the id; other paths under /links are 404 pages", async () => {
    const unknown = "lnk_0000000000000000000000000000zz";
    const res = await sendPage(app, "GET", linkPath(unknown));
    expect(res.status).toBe(404);
    expectPageHeaders(res.headers);
    expect(res.text).toContain("<h1 id=\"title\">This link does not exist</h1>");
    expect(res.text).not.toContain(unknown);
    for (const path of [`/links/${unknown}/confirm`, "/links/a/b/c", "/links/"]) {
      const other = await sendPage(app, "GET", path);
      expect(other.status).toBe(404);
      expectPageHeaders(other.headers);
    }
  });

  it("logs carry a link id's first 8 characters only, page paths included", async () => {
    const linkId = await newLink();
    const session = await open(app, linkId);
    await post(app, linkId, "confirm", session);
    const lines = app.logs.join("\n");
    expect(lines).not.toContain(linkId);
    expect(lines).not.toContain(linkId.slice(0, 9));
    expect(app.logs.some((line) => line.includes(`"path":"/links/${linkId.slice(0, 8)}***/confirm"`))).toBe(true);
  });
});

describe("posts that are not from the link's own page: 403, nothing changed", () => {
  type Session = { cookie: string; token: string; otherToken: string };
  const refusals: Array<[string, (s: Session) => PageRequest]> = [
    ["no form token", (s) => ({ form: {}, headers: sameOrigin(s.cookie) })],
    // The first character changes, never the last: a base64url text's last character carries padding bits, so
    // "...AA" was the same token once in about a thousand runs.
    ["a wrong form token", (s) => ({ form: { form_token: `${s.token.startsWith("A") ? "B" : "A"}${s.token.slice(1)}` }, headers: sameOrigin(s.cookie) })],
    ["another link's form token", (s) => ({ form: { form_token: s.otherToken }, headers: sameOrigin(s.cookie) })],
    ["no form cookie", (s) => ({ form: { form_token: s.token }, headers: { "sec-fetch-site": "same-origin" } })],
    ["Sec-Fetch-Site: cross-site", (s) => ({ form: { form_token: s.token }, headers: { ...sameOrigin(s.cookie), "sec-fetch-site": "cross-site" } })],
    ["a cross-site Origin", (s) => ({ form: { form_token: s.token }, headers: { cookie: `mf_form=${s.cookie}`, origin: "https://attacker.example" } })],
  ];

  for (const action of ["confirm", "pay"] as const) {
    it.each(refusals)(`${action}: %s`, async (_name, request) => {
      const { linkId, session } = action === "pay" ? await acceptedOnPage() : await (async () => {
        const id = await newLink();
        return { linkId: id, session: await open(app, id) };
      })();
      const otherToken = (await open(app, await newLink(), session.cookie)).token;
      const before = await linkState(linkId);
      const { form, headers } = request({ ...session, otherToken });
      const res = await sendPage(app, "POST", linkPath(linkId, action), { form: { ...form, ...(action === "pay" ? { mode: "UPI", vpa: "asha@okhdfc" } : {}) }, headers });
      expect(res.status).toBe(403);
      expectPageHeaders(res.headers);
      expect(res.text).toContain("<h1 id=\"title\">This form cannot be accepted</h1>");
      expect(await linkState(linkId)).toEqual(before);
    });
  }
});

describe("behind a proxy (MF_TRUST_PROXY=1), a budget of 5 requests per address", () => {
  const proxied = useTestApp({ MF_TRUST_PROXY: "1", MF_RATE_LIMIT_BURST: "5", MF_RATE_LIMIT_RPS: "0.01" });

  it("each page request spends one of the client address's budget: beyond it the 429 page with Retry-After, as the public API", async () => {
    const from = { "x-forwarded-for": "198.51.100.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await sendPage(proxied, "GET", linkPath("lnk_0000000000000000000000000000zz"), { headers: from })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    const refused = await sendPage(proxied, "GET", linkPath("lnk_0000000000000000000000000000zz"), { headers: from });
    expect(refused.status).toBe(429);
    expectPageHeaders(refused.headers);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.text).toContain("<h1 id=\"title\">Too many requests</h1>");
    // The public API shares the bucket; another address has its own.
    expect((await proxied.http("GET", publicPath("lnk_0000000000000000000000000000zz"), { headers: from })).status).toBe(429);
    expect((await sendPage(proxied, "GET", linkPath("lnk_0000000000000000000000000000zz"), { headers: { "x-forwarded-for": "198.51.100.78" } })).status).toBe(404);
  });

  it("records the client address the proxy saw as the consent's", async () => {
    const owner = await linkingDistributor(proxied);
    const created = await createLink(proxied, owner.token, lumpsumProposal(owner.investor));
    const linkId: string = created.body.id;
    const session = await open(proxied, linkId);
    const res = await post(proxied, linkId, "confirm", session, {}, { headers: { ...sameOrigin(session.cookie), "x-forwarded-for": "198.51.100.9, 203.0.113.44" } });
    expect(res.status).toBe(303);
    expect(await proxied.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId }, select: { consentIp: true } })).toEqual({ consentIp: "203.0.113.44" });
    expect(await proxied.http("GET", publicPath(linkId))).toMatchObject({ status: 200 });
  });
});

describe("the API reference", () => {
  it("/docs serves the document whose order-link operations (bearer and public) link to this page", async () => {
    const docs = await app.http("GET", "/docs");
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('url: "/openapi.json"');
    const document = (await app.http("GET", "/openapi.json")).body;
    const operations = (path: string) => Object.keys(document.paths[path] ?? {}).sort();
    expect({
      create: operations("/api/order-links/v1"),
      one: operations("/api/order-links/v1/{id}"),
      cancel: operations("/api/order-links/v1/{id}/cancel"),
      view: operations("/api/public/v1/order-links/{link_id}"),
      confirm: operations("/api/public/v1/order-links/{link_id}/confirm"),
      pay: operations("/api/public/v1/order-links/{link_id}/pay"),
    }).toEqual({ create: ["get", "post"], one: ["get"], cancel: ["post"], view: ["get"], confirm: ["post"], pay: ["post"] });
    expect(document.paths["/api/public/v1/order-links/{link_id}/confirm"].post.security).toEqual([]);
    expect(JSON.stringify(document.paths["/api/order-links/v1"].post.responses["201"])).toContain("The hosted page for the investor: `<MF_PUBLIC_BASE_URL>/links/<id>`.");
  });
});
