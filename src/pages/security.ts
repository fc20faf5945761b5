import { randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { addressKey } from "../platform/lib/address-key.js";
import { constantTimeEqual, type DataCipher } from "../platform/lib/crypto.js";
import { AppError } from "../platform/lib/errors.js";
import { spendBudget } from "../platform/lib/request-budget.js";
import { requestClientAddress } from "../platform/http/client-ip.js";
import type { Services } from "../domains/shared/services.js";

/**
 * What every hosted page answer carries. Nothing but our own stylesheet and images may load, no script
 * at all, forms post only to us, no site may frame us, and no address leaves in a Referer (a link id in
 * the URL is a secret).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
};

/**
 * Our page that sends the investor on to the bank (net banking in production): every page's policy, but
 * its one form (the bank's action, read out of the exchange's answer: bank-form.ts) may go to any https
 * address, because payment gateways answer that post with redirects to other hosts, which browsers check
 * against form-action too. The page has no script and no markup but ours, so no other form can be sent.
 */
export const BANK_FORM_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action https:; frame-ancestors 'none'; base-uri 'none'";

/** Sets PAGE_HEADERS on the answer, whatever produced it (the page, a redirect, the error page); the bank form page keeps its own policy. */
export const pageHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const bankForm = c.res.headers.get("Content-Security-Policy") === BANK_FORM_CSP;
  for (const [name, value] of Object.entries(PAGE_HEADERS)) {
    if (!(bankForm && name === "Content-Security-Policy")) c.res.headers.set(name, value);
  }
};

/**
 * Every request of a page spends one request of the client address's budget, as the public API's paths do
 * (ids in page addresses cannot be tried without bound); its rate headers go on the answer, a refusal's too.
 */
export function spendAddressBudget(services: Pick<Services, "addressBudget" | "config">): MiddlewareHandler {
  return async (c, next) => {
    const headers: Record<string, string> = {};
    try {
      spendBudget(services.addressBudget, `address:${addressKey(requestClientAddress(c, services.config.trustProxyHops))}`, headers, "from this address");
    } finally {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
    }
    await next();
  };
}

const FORM_COOKIE = "mf_form";
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
export const FORM_TOKEN_FIELD = "form_token";

/**
 * Cross-site posting is refused twice over. A form carries a token, the HMAC (keyed from the data key, so
 * every process agrees) of the resource id and a random value the browser also holds in a SameSite=Strict,
 * HttpOnly cookie: another site can neither read the cookie nor make the browser send it. And the post
 * must say it comes from our origin (below).
 */
export function formTokenFor(c: Context, cipher: DataCipher, resourceId: string, publicBaseUrl: string | undefined): string {
  let value = getCookie(c, FORM_COOKIE);
  if (value === undefined || !COOKIE_VALUE.test(value)) {
    value = randomBytes(32).toString("base64url");
    setCookie(c, FORM_COOKIE, value, { path: "/", httpOnly: true, sameSite: "Strict", secure: isHttps(c, publicBaseUrl) });
  }
  return cipher.formMac(`${resourceId}.${value}`);
}

/** The posted form for `resourceId`, once it is proven to come from our own page; 403 FORBIDDEN otherwise. */
export async function readProtectedForm(c: Context, cipher: DataCipher, resourceId: string, publicBaseUrl: string | undefined): Promise<Record<string, string>> {
  if (!fromOurOrigin(c, publicBaseUrl)) throw refused("The form was sent from another site");
  const cookie = getCookie(c, FORM_COOKIE);
  const body = await c.req.parseBody();
  const token = body[FORM_TOKEN_FIELD];
  if (cookie === undefined || typeof token !== "string" || !constantTimeEqual(token, cipher.formMac(`${resourceId}.${cookie}`))) {
    throw refused("The form has expired or did not come from this page");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") fields[name] = value;
  return fields;
}

/**
 * Sec-Fetch-Site, which every current browser sends, decides when present. Without it the Origin must be
 * ours; `Origin: null`, which browsers send under `Referrer-Policy: no-referrer`, proves nothing and is refused.
 */
function fromOurOrigin(c: Context, publicBaseUrl: string | undefined): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const origin = c.req.header("origin");
  return origin !== undefined && ourOrigins(c, publicBaseUrl).includes(origin);
}

/** The request's own origin, and the public one when a proxy stands in front of us. */
function ourOrigins(c: Context, publicBaseUrl: string | undefined): string[] {
  const origins = [new URL(c.req.url).origin];
  if (publicBaseUrl) origins.push(new URL(publicBaseUrl).origin);
  return origins;
}

function isHttps(c: Context, publicBaseUrl: string | undefined): boolean {
  return new URL(c.req.url).protocol === "https:" || (publicBaseUrl?.startsWith("https:") ?? false);
}

const refused = (why: string) => new AppError("FORBIDDEN", `${why}. Go back, reload the page and try again.`);
