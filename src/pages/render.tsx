import type { Context } from "hono";
import { html } from "hono/html";
import type { Child } from "hono/jsx";
import { AppError } from "../platform/lib/errors.js";
import type { Log } from "../platform/lib/logger.js";
import { reportError } from "../platform/trpc/errors.js";
import { ErrorPage, type ErrorPageProps } from "./layout.js";

/** The app's request variables (src/app.ts sets them before any page runs). */
export type PagesEnv = { Variables: { requestId: string; log: Log } };

/** Whether a page handler's error is the service's refusal with this code. */
export const isCode = (error: unknown, code: AppError["appCode"]): error is AppError => error instanceof AppError && error.appCode === code;

type Status = 200 | 400 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 500 | 502 | 503;

export function renderPage(c: Context, page: Child, status: Status = 200): Response | Promise<Response> {
  return c.html(html`<!doctype html>${page}`, status);
}

/** What the investor reads for each refusal; the AppError's own message says which resource and why. */
const TITLES: Partial<Record<number, string>> = {
  403: "This form cannot be accepted",
  404: "Page not found",
  409: "This can no longer be done",
  410: "This link is no longer valid",
  413: "The form is too large",
  429: "Too many requests",
};

/**
 * The error page for anything a page handler throws, classified as the API classifies it: an AppError
 * with its status and message; a server failure only "Something went wrong" (logged with the request id).
 */
export function renderError(c: Context<PagesEnv>, error: unknown, back?: ErrorPageProps["back"]): Response | Promise<Response> {
  const requestId = c.get("requestId");
  const { status, message, headers } = reportError(error, requestId, c.get("log"));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  const page =
    status >= 500 ? (
      <ErrorPage status={status} title="Something went wrong" message="Please try again in a moment." requestId={requestId} />
    ) : (
      <ErrorPage status={status} title={TITLES[status] ?? "This request cannot be done"} message={message} back={back} requestId={requestId} />
    );
  return renderPage(c, page, status as Status);
}
