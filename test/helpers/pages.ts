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

export interface PageRequest {
  form?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
}

/** A request as a browser sends it to a hosted page (no redirect followed): a form is url-encoded. */
export async function sendPage(target: { baseUrl: string }, method: string, path: string, options: PageRequest = {}) {
  const res = await fetch(`${target.baseUrl}${path}`, {
    method,
    redirect: "manual",
    headers: { ...(options.form || options.body ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...options.headers },
    body: options.body ?? (options.form ? new URLSearchParams(options.form).toString() : undefined),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The headers of a post from our own page in a current browser (which sends `Origin: null` under no-referrer). */
export const sameOrigin = (cookie: string) => ({ cookie: `mf_form=${cookie}`, "sec-fetch-site": "same-origin", origin: "null" });
