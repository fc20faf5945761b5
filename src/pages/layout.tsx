import type { Child } from "hono/jsx";

export const STYLESHEET_PATH = "/pages/pages.css";
/** Declared so that browsers do not ask for /favicon.ico. */
export const ICON_PATH = "/pages/favicon.svg";

/**
 * The frame of every hosted page: mobile-first, our own stylesheet, no script. `refreshSeconds`: the
 * browser reloads the page by itself (a meta refresh, which works with JavaScript off).
 */
export function Layout({ title, refreshSeconds, children }: { title: string; refreshSeconds?: number; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        {refreshSeconds !== undefined && <meta http-equiv="refresh" content={String(refreshSeconds)} />}
        <title>{title}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <link rel="icon" href={ICON_PATH} type="image/svg+xml" />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

export interface ErrorPageProps {
  status: number;
  title: string;
  message: string;
  /** Where the investor can go from here (the page the form was on). */
  back?: { href: string; label: string };
  requestId?: string;
}

/** The page of every refusal and failure, with the HTTP status it is sent with. */
export function ErrorPage({ status, title, message, back, requestId }: ErrorPageProps) {
  return (
    <Layout title={title}>
      <section class="card" aria-labelledby="title">
        <p class="status">Error {status}</p>
        <h1 id="title">{title}</h1>
        <p>{message}</p>
        {back && (
          <p>
            <a class="button" href={back.href}>{back.label}</a>
          </p>
        )}
        {requestId && <p class="muted">Reference: {requestId}</p>}
      </section>
    </Layout>
  );
}
