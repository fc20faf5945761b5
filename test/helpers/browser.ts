import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it): playwright cannot download a browser here. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const SCREENSHOTS = "test-results/screenshots";

export interface BrowserPage {
  page: Page;
  /** Every URL the page asked for (documents, stylesheets, images, anything), in order. */
  requests: string[];
  /** Console errors and uncaught page errors (a Content-Security-Policy violation shows here). */
  problems: string[];
  /** Saves the page as test-results/screenshots/<test file>/<test>/<nn>-<step>.png (git-ignored); returns the path. */
  screenshot(step: string): Promise<string>;
}

export interface TestBrowser {
  /** A fresh context (its own cookies) at a phone's width, with JavaScript on or off, and one page in it. */
  open(options: { javaScript: boolean }): Promise<BrowserPage>;
}

/**
 * One Chromium for a test file, driven by playwright-core. A machine without it fails the file with a
 * clear message: browser tests are never skipped silently.
 */
export function useBrowser(): TestBrowser {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(`Browser tests need Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (.ci/run does on CI)`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async open({ javaScript }) {
      if (!browser) throw new Error("the browser is not running (useBrowser's beforeAll failed)");
      const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width: 360, height: 780 }, locale: "en-IN" });
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => void requests.push(request.url()));
      page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
      page.on("pageerror", (error) => void problems.push(error.message));
      const { testPath, currentTestName } = expect.getState();
      const folder = path.join(SCREENSHOTS, path.basename(testPath ?? "test", ".ts"), slug(currentTestName ?? "test"));
      let shots = 0;
      return {
        page,
        requests,
        problems,
        async screenshot(step) {
          mkdirSync(folder, { recursive: true });
          shots += 1;
          const file = path.join(folder, `${String(shots).padStart(2, "0")}-${slug(step)}.png`);
          await page.screenshot({ path: file, fullPage: true });
          return file;
        },
      };
    },
  };
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 100);

/** Everything the pages loaded came from the service itself (no CDN, no font host), and nothing broke the CSP. */
export function expectOnlyOurOrigin(open: BrowserPage, baseUrl: string): void {
  expect(open.requests.length).toBeGreaterThan(0);
  expect(open.requests.filter((url) => new URL(url).origin !== baseUrl)).toEqual([]);
  expect(open.problems).toEqual([]);
}

/** A screenshot of the step was saved (and is not empty). */
export async function expectScreenshot(open: BrowserPage, step: string): Promise<void> {
  expect(statSync(await open.screenshot(step)).size).toBeGreaterThan(1000);
}
