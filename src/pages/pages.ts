import { readFileSync } from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Services } from "../domains/shared/services.js";
import { AppError, notFound } from "../platform/lib/errors.js";
import { PACKAGE_ROOT } from "../platform/lib/package-root.js";
import { ICON_PATH, STYLESHEET_PATH } from "./layout.js";
import { renderError, type PagesEnv } from "./render.js";
import { mountLinkPages } from "./link-page.js";
import { mountConsentPages } from "./consent-page.js";
import { mountSandboxPayments } from "./sandbox-payment.js";
import { pageHeaders } from "./security.js";

/** Where hosted pages live: everything under these answers with the page headers and the HTML error page. */
const PAGE_PATHS = ["/links/*", "/consents/*", "/sandbox/*", "/pages/*"];
/** A page's form holds a token and a choice or two; anything bigger is not one of ours. */
const FORM_MAX_BYTES = 16 * 1024;

const ASSETS_DIR = path.join(PACKAGE_ROOT, "assets", "pages");
const stylesheet = readFileSync(path.join(ASSETS_DIR, "pages.css"), "utf8");
const icon = readFileSync(path.join(ASSETS_DIR, "favicon.svg"), "utf8");

/** The hosted pages (server-rendered HTML for investors), mounted by src/app.ts beside /api and /trpc. */
export function createPages(services: Services): Hono<PagesEnv> {
  const pages = new Hono<PagesEnv>();
  for (const path of PAGE_PATHS) {
    pages.use(path, pageHeaders);
    pages.on("POST", path, bodyLimit({ maxSize: FORM_MAX_BYTES, onError: () => { throw new AppError("PAYLOAD_TOO_LARGE", "The form is larger than 16 KB"); } }));
  }
  pages.get(STYLESHEET_PATH, (c) => c.body(stylesheet, 200, { "Content-Type": "text/css; charset=utf-8" }));
  pages.get(ICON_PATH, (c) => c.body(icon, 200, { "Content-Type": "image/svg+xml" }));

  mountLinkPages(pages, services);
  mountConsentPages(pages, services);
  mountSandboxPayments(pages, services);
  for (const path of ["/links/*", "/consents/*", "/sandbox/*"]) {
    pages.all(path, () => {
      throw notFound("Page");
    });
  }
  pages.onError((error, c) => renderError(c, error));
  return pages;
}
