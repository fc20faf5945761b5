import { expect } from "vitest";

/** The headers every hosted page answer carries (src/pages/security.ts), asserted exactly. */
export function expectPageHeaders(headers: Headers): void {
  expect({
    csp: headers.get("content-security-policy"),
    referrer: headers.get("referrer-policy"),
    nosniff: headers.get("x-content-type-options"),
    frames: headers.get("x-frame-options"),
    cache: headers.get("cache-control"),
  }).toEqual({
    csp: "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    referrer: "no-referrer",
    nosniff: "nosniff",
    frames: "DENY",
    cache: "no-store",
  });
  expect(headers.get("x-request-id")).toMatch(/^req_/);
}

/** The form token a page rendered. */
export function tokenIn(html: string): string {
  const token = /name="form_token" value="([A-Za-z0-9_-]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no form token in the page");
  return token;
}

/** The form cookie a page set and the form token it rendered. */
export function formOf(headers: Headers, html: string): { cookie: string; token: string } {
  const cookie = /^mf_form=([A-Za-z0-9_-]{43});/.exec(headers.get("set-cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`no form cookie set by the page (set-cookie: ${headers.get("set-cookie")})`);
  return { cookie, token: tokenIn(html) };
}
