import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { expectOnlyOurOrigin, expectScreenshot, useBrowser, type BrowserPage } from "../helpers/browser.js";
import { createLink, linkingDistributor, lumpsumProposal } from "../helpers/order-links.js";

const app = useTestApp();
const browser = useBrowser();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
});

/** Submits a form by its button and waits for the page the redirect (303) leads to. */
async function submit(page: Page, button: string) {
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button, exact: true }).click()]);
}

const heading = (page: Page) => page.locator("h1").textContent();

async function newLink(): Promise<string> {
  const res = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function dbState(linkId: string) {
  const link = await app.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId } });
  const order = await app.prisma.order.findUniqueOrThrow({ where: { id: link.orderId! } });
  const payments = await app.prisma.payment.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" }, select: { status: true, basketId: true, failureCode: true } });
  return { link: link.status, basket: link.basketId, consentUserAgent: link.consentUserAgent, order: order.status, orderPayment: order.paymentStatus, payments };
}

/**
 * From the link to the payment page: the masked proposal, Confirm, the page waiting for the exchange
 * (the worker is started only then, so the wait is seen), its own refresh bringing the payment choice,
 * UPI, and the simulator page.
 */
async function confirmAndStartUpi(open: BrowserPage, linkId: string) {
  const { page } = open;
  const response = await page.goto(`${app.baseUrl}/links/${linkId}`);
  expect(response?.status()).toBe(200);
  expect(await heading(page)).toBe("Confirm your order");
  const html = await page.content();
  for (const secret of [ctx.investor.pan, "Asha Rao", "Asha", "asha.rao@example.in", "9876543210", "001234567890"]) expect(html).not.toContain(secret);
  const proposal = await page.locator("dl.proposal").innerText();
  expect(proposal).toContain("Test Flexi Cap Fund - Growth");
  expect(proposal).toContain("₹2,500.50");
  expect(proposal).toContain("One-time purchase");
  expect(proposal).toContain(`A*** R**, PAN ${ctx.investor.pan.slice(0, 2)}XXXXX${ctx.investor.pan.slice(-3)}`);
  expect(proposal).toContain(`Mehta Advisors, ${ctx.arn}`);
  expect(await page.getByRole("button", { name: "Confirm order" }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(31, 95, 191)");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectScreenshot(open, "proposal");

  await submit(page, "Confirm order");
  expect(page.url()).toBe(`${app.baseUrl}/links/${linkId}`);
  expect(await heading(page)).toBe("Waiting for the exchange");
  await expectScreenshot(open, "waiting for the exchange");

  const worker = await startWorker(app.services, app.databaseUrl);
  try {
    // No script: the page's meta refresh reloads it until the sandbox exchange has accepted the order.
    await page.locator("#pay-upi").waitFor({ timeout: 20_000 });
  } finally {
    await worker.stop();
  }
  expect(await heading(page)).toBe("Pay for your order");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectScreenshot(open, "payment choice");

  await page.getByLabel("UPI ID").fill("asha.rao@okhdfc");
  await submit(page, "Pay ₹2,500.50 by UPI");
  expect(page.url()).toMatch(new RegExp(`^${app.baseUrl}/sandbox/payments/pay_[0-9a-z]+$`));
  expect(await page.locator("#payment-status").textContent()).toBe("PENDING");
  await expectScreenshot(open, "payment simulator");
}

for (const javaScript of [true, false]) {
  describe(`JavaScript ${javaScript ? "on" : "off"}`, () => {
    it("an investor opens the link, confirms, waits for acceptance, pays by UPI on the simulator and returns to a page that says paid", async () => {
      const linkId = await newLink();
      const open = await browser.open({ javaScript });
      const { page } = open;
      await confirmAndStartUpi(open, linkId);

      await submit(page, "Pay");
      expect(page.url()).toBe(`${app.baseUrl}/links/${linkId}`);
      expect(await heading(page)).toBe("Paid");
      expect(await page.getByRole("status").textContent()).toContain("Paid. We received ₹2,500.50 by UPI.");
      await expectScreenshot(open, "paid");

      const state = await dbState(linkId);
      expect(state).toMatchObject({ link: "PAID", order: "ACCEPTED", orderPayment: "PAID", payments: [{ status: "CAPTURED", basketId: state.basket, failureCode: null }] });
      expect(state.consentUserAgent).toContain("Chrome");
      expectOnlyOurOrigin(open, app.baseUrl);
      await page.context().close();
    });

    it("a failed payment shows why; Try again pays in the same basket", async () => {
      const linkId = await newLink();
      const open = await browser.open({ javaScript });
      const { page } = open;
      await confirmAndStartUpi(open, linkId);

      await submit(page, "Fail");
      expect(page.url()).toBe(`${app.baseUrl}/links/${linkId}`);
      expect(await page.locator("#payment-failed").textContent()).toBe("The payment of ₹2,500.50 by UPI failed. Your bank declined the payment.");
      expect(await page.locator("h2").textContent()).toBe("Try again");
      await expectScreenshot(open, "payment failed");

      await page.getByLabel("UPI ID").fill("asha@okicici");
      await submit(page, "Pay ₹2,500.50 by UPI");
      expect(page.url()).toMatch(new RegExp(`^${app.baseUrl}/sandbox/payments/pay_`));
      await submit(page, "Pay");
      expect(await heading(page)).toBe("Paid");
      await expectScreenshot(open, "paid after retry");

      const state = await dbState(linkId);
      expect(state).toMatchObject({
        link: "PAID",
        orderPayment: "PAID",
        payments: [
          { status: "FAILED", basketId: state.basket, failureCode: "bank_declined" },
          { status: "CAPTURED", basketId: state.basket, failureCode: null },
        ],
      });
      expectOnlyOurOrigin(open, app.baseUrl);
      await page.context().close();
    });
  });
}

describe("links that are gone", () => {
  it("an expired link and a cancelled one each show their page with 410", async () => {
    const open = await browser.open({ javaScript: false });
    const { page } = open;

    const expired = await newLink();
    await app.prisma.orderLink.update({ where: { id: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await page.goto(`${app.baseUrl}/links/${expired}`))?.status()).toBe(410);
    expect(await heading(page)).toBe("This link has expired");
    expect(await page.locator("form").count()).toBe(0);
    await expectScreenshot(open, "expired");

    const cancelled = await newLink();
    expect((await app.http("POST", `/api/order-links/v1/${cancelled}/cancel`, { token: ctx.token })).status).toBe(200);
    expect((await page.goto(`${app.baseUrl}/links/${cancelled}`))?.status()).toBe(410);
    expect(await heading(page)).toBe("This link was cancelled");
    await expectScreenshot(open, "cancelled");

    expect((await page.goto(`${app.baseUrl}/links/lnk_00000000000000000000000000000000`))?.status()).toBe(404);
    expect(await heading(page)).toBe("This link does not exist");
    await expectScreenshot(open, "unknown");

    // Chromium reports a document's own error status on the console; nothing else may be there.
    const statusLine = (status: string) => `Failed to load resource: the server responded with a status of ${status}`;
    expect(open.problems).toEqual([statusLine("410 (Gone)"), statusLine("410 (Gone)"), statusLine("404 (Not Found)")]);
    expect(open.requests.filter((url) => new URL(url).origin !== app.baseUrl)).toEqual([]);
    await page.context().close();
  });
});
