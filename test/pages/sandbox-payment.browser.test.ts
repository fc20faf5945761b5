import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { expectOnlyOurOrigin, expectScreenshot, useBrowser } from "../helpers/browser.js";
import { createOpenScheme, orderingInvestor } from "../helpers/orders.js";
import { pendingUpiPayment } from "../helpers/payments.js";

const app = useTestApp();
const browser = useBrowser();
let who: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "940001", "Bluechip Equity Fund");
  who = await orderingInvestor(app);
});

const statusOf = async (paymentId: string, orderId: string) => ({
  payment: (await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).status,
  order: (await app.prisma.order.findUniqueOrThrow({ where: { id: orderId } })).paymentStatus,
});

const cases = [
  { button: "Pay", payment: "CAPTURED", order: "PAID", says: "Payment received." },
  { button: "Fail", payment: "FAILED", order: "FAILED", says: "The payment failed." },
] as const;

for (const javaScript of [true, false]) {
  describe(`JavaScript ${javaScript ? "on" : "off"}`, () => {
    for (const { button, payment, order, says } of cases) {
      it(`${button}: from the PENDING payment to its outcome`, async () => {
        const { paymentId, orderId } = await pendingUpiPayment(app, who, "940001");
        const open = await browser.open({ javaScript });
        const { page } = open;

        const response = await page.goto(`${app.baseUrl}/sandbox/payments/${paymentId}`);
        expect(response?.status()).toBe(200);
        expect(await page.locator("#payment-status").textContent()).toBe("PENDING");
        expect(await page.locator(".amount").textContent()).toBe("₹2,500.50");
        // Our stylesheet applied, and the page fits a 360 px phone without sideways scrolling.
        expect(await page.getByRole("button", { name: "Pay" }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(31, 95, 191)");
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await expectScreenshot(open, "pending");

        // The post answers 303 and the browser loads the page it names: wait for that load.
        await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button }).click()]);
        expect(page.url()).toBe(`${app.baseUrl}/sandbox/payments/${paymentId}`);
        expect(await page.locator("#payment-status").textContent()).toBe(payment);
        expect(await page.getByRole("status").textContent()).toContain(says);
        expect(await page.locator("form").count()).toBe(0);
        await expectScreenshot(open, button === "Pay" ? "paid" : "failed");

        expect(await statusOf(paymentId, orderId)).toEqual({ payment, order });
        expectOnlyOurOrigin(open, app.baseUrl);
        await page.context().close();
      });
    }
  });
}

describe("another site", () => {
  let attacker: Server;
  let attackerUrl: string;
  let target = "";

  beforeAll(async () => {
    // localhost is another site than 127.0.0.1, where the service listens: a page there posts a copy of the form.
    attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><form method="post" action="${target}"><input type="hidden" name="form_token" value="stolen"><button>Claim your prize</button></form>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

  it("cannot make the investor's browser pay: 403 page, the payment stays PENDING", async () => {
    const { paymentId, orderId } = await pendingUpiPayment(app, who, "940001");
    const open = await browser.open({ javaScript: false });
    const { page } = open;
    await page.goto(`${app.baseUrl}/sandbox/payments/${paymentId}`); // the browser holds our form cookie
    target = `${app.baseUrl}/sandbox/payments/${paymentId}/pay`;
    await page.goto(attackerUrl);
    const [posted] = await Promise.all([page.waitForResponse(target), page.getByRole("button", { name: "Claim your prize" }).click()]);
    expect(posted.status()).toBe(403);
    await page.waitForLoadState("load");
    expect(await page.locator("h1").textContent()).toBe("This form cannot be accepted");
    await expectScreenshot(open, "refused");
    expect(await statusOf(paymentId, orderId)).toEqual({ payment: "PENDING", order: "PENDING" });
    await page.context().close();
  });
});
