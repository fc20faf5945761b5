import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { acceptedLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";
import { createOpenScheme, orderingInvestor } from "../helpers/orders.js";
import { expectPageHeaders, formOf, sameOrigin, sendPage, tokenIn } from "../helpers/pages.js";
import { pendingUpiPayment } from "../helpers/payments.js";
import { UNREACHED_BSE_ENV } from "../helpers/bse-double/double.js";

const app = useTestApp();
let who: Awaited<ReturnType<typeof orderingInvestor>>;
let linker: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  await createOpenScheme(app, "930001", "Bluechip Equity Fund");
  who = await orderingInvestor(app);
  linker = await linkingDistributor(app);
});

/** Opens the simulator page of a new PENDING payment and returns its form cookie and token. */
async function openPending() {
  const { paymentId, orderId } = await pendingUpiPayment(app, who, "930001");
  const page = await sendPage(app, "GET", `/sandbox/payments/${paymentId}`);
  expect(page.status).toBe(200);
  return { paymentId, orderId, page, ...formOf(page.headers, page.text) };
}

/** A PENDING UPI payment started through an order link (accepted by the sandbox exchange). */
async function linkPayment() {
  const { linkId } = await acceptedLink(app, linker.token, lumpsumProposal(linker.investor));
  const paid = await app.http("POST", publicPath(linkId, "pay"), { token: linker.token, json: { mode: "UPI", vpa: "asha@okhdfc" } });
  expect(paid.status).toBe(201);
  return { linkId, paymentId: paid.body.id as string };
}

/** What a refused post must leave as it was: the payment, the order's payment_status, the events, the gateway's books. */
async function stateOf(paymentId: string, orderId: string) {
  const payment = await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const order = await app.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  return {
    status: payment.status,
    updatedAt: payment.updatedAt,
    orderPaymentStatus: order.paymentStatus,
    events: await app.prisma.event.count({ where: { resourceId: paymentId } }),
    books: await app.prisma.sandboxExchangeRecord.count({ where: { reference: paymentId } }),
  };
}

describe("the sandbox payment simulator page", () => {
  it("shows a PENDING payment (amount, mode, masked VPA, status) with Pay and Fail forms, no script, and the page headers", async () => {
    const { paymentId, page, token } = await openPending();
    expectPageHeaders(page.headers);
    expect(page.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(page.headers.get("set-cookie")).toMatch(/^mf_form=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(page.text.startsWith("<!doctype html><html lang=\"en\">")).toBe(true);
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(page.text).toContain('<link rel="stylesheet" href="/pages/pages.css"/>');
    expect(page.text).toContain("₹2,500.50");
    expect(page.text).toContain("<dt>Mode</dt><dd>UPI</dd><dt>UPI ID</dt><dd>as***@okhdfc</dd>");
    expect(page.text).toContain('<dd id="payment-status">PENDING</dd>');
    expect(page.text).toContain(`<form method="post" action="/sandbox/payments/${paymentId}/pay"><input type="hidden" name="form_token" value="${token}"/><button type="submit">Pay</button></form>`);
    expect(page.text).toContain(`<form method="post" action="/sandbox/payments/${paymentId}/fail">`);
    expect(page.text).not.toMatch(/<script|style=|<style/i);
  });

  it("serves its own stylesheet and icon with the page headers", async () => {
    const css = await sendPage(app, "GET", "/pages/pages.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expectPageHeaders(css.headers);
    expect(css.text).toContain("main {");
    const icon = await sendPage(app, "GET", "/pages/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expectPageHeaders(icon.headers);
  });

  it("keeps the browser's form cookie: a second visit sets none and renders the token for the same cookie", async () => {
    const { paymentId, cookie, token } = await openPending();
    const again = await sendPage(app, "GET", `/sandbox/payments/${paymentId}`, { headers: { cookie: `mf_form=${cookie}` } });
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(again.text).toContain(`value="${token}"`);
  });

  it("Pay captures the payment through the payment service and redirects (303) to the page, which shows the outcome without buttons", async () => {
    const { paymentId, orderId, cookie, token } = await openPending();
    const paid = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, { form: { form_token: token }, headers: sameOrigin(cookie) });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/sandbox/payments/${paymentId}`);
    expectPageHeaders(paid.headers);
    expect(await stateOf(paymentId, orderId)).toMatchObject({ status: "CAPTURED", orderPaymentStatus: "PAID", events: 1, books: 1 });
    const payment = await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.providerRemark).toBe("SANDBOX: FUNDS RECEIVED");
    expect(payment.capturedAt).not.toBeNull();

    const outcome = await sendPage(app, "GET", `/sandbox/payments/${paymentId}`, { headers: { cookie: `mf_form=${cookie}` } });
    expect(outcome.status).toBe(200);
    expect(outcome.text).toContain('<dd id="payment-status">CAPTURED</dd>');
    expect(outcome.text).toContain("Payment received. SANDBOX: FUNDS RECEIVED");
    expect(outcome.text).not.toContain("<form");
  });

  it("Pay and Fail of a payment an order link made return to the link's page (303); a payment no link made returns to the simulator", async () => {
    for (const move of ["pay", "fail"] as const) {
      const { linkId, paymentId } = await linkPayment();
      const page = await sendPage(app, "GET", `/sandbox/payments/${paymentId}`);
      const { cookie, token } = formOf(page.headers, page.text);
      const moved = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/${move}`, { form: { form_token: token }, headers: sameOrigin(cookie) });
      expect(moved.status).toBe(303);
      expect(moved.headers.get("location")).toBe(`/links/${linkId}`);
      expect((await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe(move === "pay" ? "CAPTURED" : "FAILED");
    }
    const { paymentId, cookie, token } = await openPending();
    const paid = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, { form: { form_token: token }, headers: sameOrigin(cookie) });
    expect(paid.headers.get("location")).toBe(`/sandbox/payments/${paymentId}`);
  });

  it("Fail fails the payment the same way", async () => {
    const { paymentId, orderId, cookie, token } = await openPending();
    const failed = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/fail`, { form: { form_token: token }, headers: sameOrigin(cookie) });
    expect(failed.status).toBe(303);
    expect(await stateOf(paymentId, orderId)).toMatchObject({ status: "FAILED", orderPaymentStatus: "FAILED", events: 1 });
    const outcome = await sendPage(app, "GET", `/sandbox/payments/${paymentId}`);
    expect(outcome.text).toContain("The payment failed. SANDBOX: PAYMENT FAILED BY SIMULATION");
  });

  it("offers the closed failure reasons, bank_declined first chosen, and Fail records the one picked", async () => {
    const { paymentId, page, cookie, token } = await openPending();
    expect(page.text).toContain('<select id="failure_code" name="failure_code"><option value="payment_expired">');
    expect(page.text).toContain('<option value="bank_declined" selected="">Your bank declined the payment.</option>');
    expect(page.text.match(/<option value="/g)).toHaveLength(6);
    const failed = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/fail`, { form: { form_token: token, failure_code: "insufficient_funds" }, headers: sameOrigin(cookie) });
    expect(failed.status).toBe(303);
    const payment = await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect({ status: payment.status, failureCode: payment.failureCode }).toEqual({ status: "FAILED", failureCode: "insufficient_funds" });
  });

  it("Fail without a reason records bank_declined; an unknown reason is a 400 page naming the field, changing nothing", async () => {
    const first = await openPending();
    await sendPage(app, "POST", `/sandbox/payments/${first.paymentId}/fail`, { form: { form_token: first.token }, headers: sameOrigin(first.cookie) });
    expect((await app.prisma.payment.findUniqueOrThrow({ where: { id: first.paymentId } })).failureCode).toBe("bank_declined");

    const { paymentId, orderId, cookie, token } = await openPending();
    const before = await stateOf(paymentId, orderId);
    const refused = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/fail`, { form: { form_token: token, failure_code: "stolen_card" }, headers: sameOrigin(cookie) });
    expect(refused.status).toBe(400);
    expectPageHeaders(refused.headers);
    expect(refused.text).toContain("<p>failure_code must be one of payment_expired, invalid_vpa, bank_declined, user_cancelled, insufficient_funds, tpv_failed</p>");
    expect(await stateOf(paymentId, orderId)).toEqual(before);
  });

  it("accepts a post without Sec-Fetch-Site whose Origin is ours", async () => {
    const { paymentId, orderId, cookie, token } = await openPending();
    const paid = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, { form: { form_token: token }, headers: { cookie: `mf_form=${cookie}`, origin: app.baseUrl } });
    expect(paid.status).toBe(303);
    expect((await stateOf(paymentId, orderId)).status).toBe("CAPTURED");
  });

  it("answers a payment that is no longer PENDING 409 with a way back, changing nothing", async () => {
    const { paymentId, orderId, cookie, token } = await openPending();
    await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, { form: { form_token: token }, headers: sameOrigin(cookie) });
    const before = await stateOf(paymentId, orderId);
    const again = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/fail`, { form: { form_token: token }, headers: sameOrigin(cookie) });
    expect(again.status).toBe(409);
    expectPageHeaders(again.headers);
    expect(again.text).toContain("This can no longer be done");
    expect(again.text).toContain(`Payment ${paymentId} is CAPTURED; only a PENDING payment can be failed`);
    expect(again.text).toContain(`<a class="button" href="/sandbox/payments/${paymentId}">Back to the payment</a>`);
    expect(await stateOf(paymentId, orderId)).toEqual(before);
  });
});

describe("posts that are not from our own page: 403, nothing changed", () => {
  const refusals: Array<[string, (f: { cookie: string; token: string; otherToken: string }) => { form?: Record<string, string>; headers: Record<string, string>; body?: string }]> = [
    ["no form token", (f) => ({ form: {}, headers: sameOrigin(f.cookie) })],
    // The first character changes, never the last (a base64url text's last character carries padding bits).
    ["a wrong form token", (f) => ({ form: { form_token: `${f.token.startsWith("A") ? "B" : "A"}${f.token.slice(1)}` }, headers: sameOrigin(f.cookie) })],
    ["another payment's form token", (f) => ({ form: { form_token: f.otherToken }, headers: sameOrigin(f.cookie) })],
    ["no form cookie", (f) => ({ form: { form_token: f.token }, headers: { "sec-fetch-site": "same-origin" } })],
    ["another form cookie", (f) => ({ form: { form_token: f.token }, headers: { ...sameOrigin(f.cookie), cookie: `mf_form=${"A".repeat(43)}` } })],
    ["Sec-Fetch-Site: cross-site", (f) => ({ form: { form_token: f.token }, headers: { ...sameOrigin(f.cookie), "sec-fetch-site": "cross-site" } })],
    ["Sec-Fetch-Site: same-site", (f) => ({ form: { form_token: f.token }, headers: { ...sameOrigin(f.cookie), "sec-fetch-site": "same-site", origin: app.baseUrl } })],
    ["a cross-site Origin", (f) => ({ form: { form_token: f.token }, headers: { cookie: `mf_form=${f.cookie}`, origin: "https://attacker.example" } })],
    ["Origin: null without Sec-Fetch-Site", (f) => ({ form: { form_token: f.token }, headers: { cookie: `mf_form=${f.cookie}`, origin: "null" } })],
    ["neither Origin nor Sec-Fetch-Site", (f) => ({ form: { form_token: f.token }, headers: { cookie: `mf_form=${f.cookie}` } })],
    ["a JSON body", (f) => ({ body: JSON.stringify({ form_token: f.token }), headers: { ...sameOrigin(f.cookie), "content-type": "application/json" } })],
  ];

  it.each(refusals)("%s", async (_name, request) => {
    const { paymentId, orderId, cookie, token } = await openPending();
    const other = await openPending();
    const otherToken = tokenIn((await sendPage(app, "GET", `/sandbox/payments/${other.paymentId}`, { headers: { cookie: `mf_form=${cookie}` } })).text);
    const before = await stateOf(paymentId, orderId);
    const res = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, request({ cookie, token, otherToken }));
    expect(res.status).toBe(403);
    expectPageHeaders(res.headers);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.text).toContain("<h1 id=\"title\">This form cannot be accepted</h1>");
    expect(res.text).toMatch(/Go back, reload the page and try again\./);
    expect(await stateOf(paymentId, orderId)).toEqual(before);
  });
});

describe("pages that do not exist", () => {
  it("an unknown payment is a 404 page", async () => {
    const res = await sendPage(app, "GET", "/sandbox/payments/pay_01k0000000000000000000000");
    expect(res.status).toBe(404);
    expectPageHeaders(res.headers);
    expect(res.text).toContain("Page not found");
    expect(res.text).toContain("Payment not found");
  });

  it("an unknown sandbox path, and a GET of an action, are 404 pages", async () => {
    for (const path of ["/sandbox/nothing", "/sandbox/payments/pay_x/pay"]) {
      const res = await sendPage(app, "GET", path);
      expect(res.status).toBe(404);
      expectPageHeaders(res.headers);
      expect(res.text).toContain("Page not found");
    }
  });

  it("a form over 16 KB is a 413 page, changing nothing", async () => {
    const { paymentId, orderId, cookie, token } = await openPending();
    const before = await stateOf(paymentId, orderId);
    const res = await sendPage(app, "POST", `/sandbox/payments/${paymentId}/pay`, { form: { form_token: token, pad: "x".repeat(17_000) }, headers: sameOrigin(cookie) });
    expect(res.status).toBe(413);
    expectPageHeaders(res.headers);
    expect(await stateOf(paymentId, orderId)).toEqual(before);
  });
});

describe("in production", () => {
  const production = useTestApp({ MF_ENV: "production", MF_DATA_KEY: "ab".repeat(32), ...UNREACHED_BSE_ENV });

  it("the simulator page does not exist: GET and POST are the 404 page", async () => {
    for (const [method, path] of [["GET", "/sandbox/payments/pay_01k0000000000000000000000"], ["POST", "/sandbox/payments/pay_01k0000000000000000000000/pay"]] as const) {
      const res = await sendPage(production, method, path, method === "POST" ? { form: {}, headers: { "sec-fetch-site": "same-origin" } } : {});
      expect(res.status).toBe(404);
      expectPageHeaders(res.headers);
      expect(res.text).toContain("<p>Page not found</p>");
    }
  });
});
