import { beforeAll, describe, expect, it } from "vitest";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { initiatePayment } from "../../src/domains/payments/jobs/gateway.js";
import { useTestApp } from "../helpers/app.js";
import { useBseDouble } from "../helpers/bse-double/double.js";
import { createBseScheme } from "../helpers/bse-double/schemes.js";
import { pendingInvestor } from "../helpers/investors.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedLink, LINK_SCHEME, lumpsumProposal, publicPath } from "../helpers/order-links.js";
import { sendPage } from "../helpers/pages.js";

/**
 * Production net banking: the exchange's payment API answers the bank's page as HTML. The service never
 * serves that HTML from its origin: it reads the bank's form out of it and renders its own page with
 * that form alone (action and fields escaped), which the investor sends to the bank. Tested as an
 * attacker would shape the HTML.
 */
const BASE = "https://mf.example.in";
const env: Record<string, string> = {};
const double = useBseDouble(env, { MF_PUBLIC_BASE_URL: BASE });
const app = useTestApp(env);

/** The headers of our bank form page: every page's, but its form may go to the bank (https) only. */
const BANK_FORM_HEADERS = {
  "content-type": "text/html; charset=UTF-8",
  "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action https:; frame-ancestors 'none'; base-uri 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};
const headersOf = (headers: Headers) => Object.fromEntries(Object.keys(BANK_FORM_HEADERS).map((name) => [name, headers.get(name)]));

let ctx: { linkId: string; paymentId: string; orderNo: string };

beforeAll(async () => {
  await createBseScheme(app, double.current, LINK_SCHEME);
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token);
  await runTask(app, registerInvestor, { investor_id: investor.id });
  const { linkId, orderId } = await acceptedLink(app, token, lumpsumProposal(investor));
  const paid = await app.http("POST", publicPath(linkId, "pay"), { token, json: { mode: "NETBANKING", bank_account_id: investor.bankAccountId } });
  expect(paid.status).toBe(201);
  await runTask(app, initiatePayment, { payment_id: paid.body.id });
  const order = await app.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  ctx = { linkId, paymentId: paid.body.id, orderNo: order.exchangeOrderNumber! };
});

/** The exchange answered `html` as the bank's page of the link's payment (stored as the payment job stores it). */
async function bankPageIs(html: string) {
  const payment = await app.prisma.payment.findUniqueOrThrow({ where: { id: ctx.paymentId } });
  const details = { ...(payment.details as Record<string, unknown>), gateway_page_encrypted: app.services.cipher.encrypt(html) };
  await app.prisma.payment.update({ where: { id: ctx.paymentId }, data: { details } });
}
const paymentPage = () => sendPage(app, "GET", `/links/${ctx.linkId}/payment`);
const formIn = (page: string) => /<form[\s\S]*<\/form>/.exec(page)?.[0];

describe("the production bank page: our own page with the bank's form alone", () => {
  it("the double's bank page: the form's action and hidden fields, a button to continue; no script, our headers", async () => {
    const page = await paymentPage();
    expect(page.status).toBe(200);
    expect(headersOf(page.headers)).toEqual(BANK_FORM_HEADERS);
    expect(formIn(page.text)).toBe(
      `<form method="post" action="https://netbanking.bank.example/pay"><input type="hidden" name="ref" value="${ctx.orderNo}"/>` +
        `<button type="submit" class="button">Continue to your bank</button></form>`,
    );
    expect(page.text).toContain("<h1 id=\"title\">Continue to your bank</h1>");
    expect(page.text).toContain("netbanking.bank.example");
    expect(page.text).toContain(`href="/links/${ctx.linkId}"`);
    expect(page.text).not.toMatch(/<script|document\.getElementById/);
  });

  it("hostile HTML: script, meta refresh, base href, meta referrer, phishing text, frames and a second-hand style are all dropped; values are escaped", async () => {
    await bankPageIs(
      `<html><head><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/phish">` +
        `<meta name="referrer" content="unsafe-url"><style>body{background:url(https://evil.example/t.gif)}</style>` +
        `<script>fetch("/api/public/v1/order-links")</script></head><body onload="alert(1)"><h1>Enter your card PIN</h1>` +
        `<iframe src="https://evil.example/"></iframe><img src="https://evil.example/pixel.gif">` +
        `<form name="f" method="POST" action="https://netbanking.bank.example/pay?session=1&amp;x=2" onsubmit="steal()">` +
        `<input type="hidden" name="msg" value="A|B&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"><input name="note" value="o'k">` +
        `<input type="submit" name="go" value="Pay"><input type="checkbox" name="unticked" value="1"><textarea name="t">a&lt;b</textarea></form>` +
        `<script>document.f.submit()</script></body></html>`,
    );
    const page = await paymentPage();
    expect(page.status).toBe(200);
    expect(headersOf(page.headers)).toEqual(BANK_FORM_HEADERS);
    expect(formIn(page.text)).toBe(
      `<form method="post" action="https://netbanking.bank.example/pay?session=1&amp;x=2">` +
        `<input type="hidden" name="msg" value="A|B&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"/>` +
        `<input type="hidden" name="note" value="o&#39;k"/>` +
        `<input type="hidden" name="t" value="a&lt;b"/>` +
        `<button type="submit" class="button">Continue to your bank</button></form>`,
    );
    for (const dropped of ["evil.example", "<script", "<base", "http-equiv", "unsafe-url", "Enter your card PIN", "<iframe", "onload", "onsubmit", "steal()"]) {
      expect(page.text).not.toContain(dropped);
    }
  });

  it("a GET form keeps its action's query as fields (a browser drops it on a GET submit)", async () => {
    await bankPageIs(`<form action="https://pg.bank.example/start?mid=77&amp;ref=N1"><input type="hidden" name="amt" value="2500.50"></form>`);
    const page = await paymentPage();
    expect(formIn(page.text)).toBe(
      `<form method="get" action="https://pg.bank.example/start"><input type="hidden" name="mid" value="77"/><input type="hidden" name="ref" value="N1"/>` +
        `<input type="hidden" name="amt" value="2500.50"/><button type="submit" class="button">Continue to your bank</button></form>`,
    );
  });

  it("a bare https address instead of a page is a redirect to it, with no Referer", async () => {
    await bankPageIs("  https://pg.bank.example/pay?token=abc  ");
    const page = await paymentPage();
    expect([page.status, page.headers.get("location"), page.headers.get("referrer-policy"), page.headers.get("cache-control")]).toEqual([
      303, "https://pg.bank.example/pay?token=abc", "no-referrer", "no-store",
    ]);
    expect(page.text).toBe("");
  });

  it("what cannot be shown safely is not shown: no form, two forms, an action that is not absolute https; the investor is sent back", async () => {
    const refused = [
      `<html><body><h1>Pay here</h1><script>location="https://netbanking.bank.example/pay"</script></body></html>`,
      `<meta http-equiv="refresh" content="0;url=https://netbanking.bank.example/pay">`,
      `<form method="post" action="https://a.bank.example/"></form><form method="post" action="https://b.bank.example/"></form>`,
      `<form method="post" action="http://netbanking.bank.example/pay"></form>`,
      `<form method="post" action="javascript:alert(1)"></form>`,
      `<form method="post" action="/api/public/v1/order-links"></form>`,
      `<form method="post"></form>`,
      "http://pg.bank.example/pay",
    ];
    for (const html of refused) {
      await bankPageIs(html);
      const page = await paymentPage();
      expect({ html, status: page.status }).toEqual({ html, status: 502 });
      expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
      expect(page.text).toContain("Your bank&#39;s page could not be opened");
      expect(page.text).toContain(`href="/links/${ctx.linkId}"`);
      expect(page.text).not.toMatch(/<form|<script|bank\.example/);
    }
  });

  it("the bank's page is never logged", () => {
    expect(app.logs.join("\n")).not.toMatch(/netbanking\.bank\.example|<form|evil\.example/);
  });
});
