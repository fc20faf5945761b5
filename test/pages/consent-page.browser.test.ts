import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DECLARATION_VERSION } from "../../src/domains/investors/nomination-declaration.js";
import { useTestApp } from "../helpers/app.js";
import { expectOnlyOurOrigin, expectScreenshot, useBrowser } from "../helpers/browser.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor, type TestInvestor } from "../helpers/investors.js";

const app = useTestApp();
const browser = useBrowser();
let token = "";

beforeAll(async () => {
  ({ token } = await app.newDistributor());
});

const heading = (page: Page) => page.locator("h1").textContent();

async function newConsent(): Promise<{ investor: TestInvestor; consentId: string }> {
  const investor = await pendingInvestor(app, token, investorBody({ nominees: [] }));
  const res = await app.http("POST", `/api/investors/v1/${investor.id}/nomination-opt-out`, { token });
  expect(res.status).toBe(201);
  return { investor, consentId: res.body.id };
}

describe("the consent page in Chromium", () => {
  for (const javaScript of [true, false]) {
    it(`reads the declaration and confirms it (JavaScript ${javaScript ? "on" : "off"}): the evidence is kept with the browser's user agent`, async () => {
      const open = await browser.open({ javaScript });
      const { page } = open;
      const { investor, consentId } = await newConsent();
      expect((await page.goto(`${app.baseUrl}/consents/${consentId}`))?.status()).toBe(200);
      expect(await heading(page)).toBe("Declaration for opting out of nomination");
      const html = await page.content();
      for (const secret of [investor.pan, "Asha Rao", "asha.rao@example.in", "9876543210"]) expect(html).not.toContain(secret);
      expect(await page.locator("dl.proposal").innerText()).toContain(`${investor.pan.slice(0, 2)}XXXXX${investor.pan.slice(-3)}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await expectScreenshot(open, "declaration");

      await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "I confirm: I do not wish to nominate" }).click()]);
      expect(page.url()).toBe(`${app.baseUrl}/consents/${consentId}`);
      expect(await page.locator("#confirmed").innerText()).toContain("You confirmed this declaration on");
      expect(await page.locator("form").count()).toBe(0);
      await expectScreenshot(open, "confirmed");
      expectOnlyOurOrigin(open, app.baseUrl);

      const userAgent = await page.evaluate(() => navigator.userAgent);
      const link = await app.prisma.consentLink.findUniqueOrThrow({ where: { id: consentId } });
      expect(link).toMatchObject({ status: "CONFIRMED", confirmIp: "127.0.0.1", confirmUserAgent: userAgent, declarationVersion: DECLARATION_VERSION });
      const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
      expect(view.body.nomination).toMatchObject({ status: "OPTED_OUT", evidence: { user_agent: userAgent } });
      await page.context().close();
    });
  }

  it("an expired link shows its page (410) with no form", async () => {
    const open = await browser.open({ javaScript: false });
    const { page } = open;
    const { consentId } = await newConsent();
    await app.prisma.consentLink.update({ where: { id: consentId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await page.goto(`${app.baseUrl}/consents/${consentId}`))?.status()).toBe(410);
    expect(await heading(page)).toBe("This link has expired");
    expect(await page.locator("form").count()).toBe(0);
    await expectScreenshot(open, "expired");
    await page.context().close();
  });
});
