import { randomUUID } from "node:crypto";
import { Hono, type Context as HonoContext } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AnyRouter } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { AppError } from "./platform/lib/errors.js";
import { accessLineWriter, lazyChild, type Log } from "./platform/lib/logger.js";
import { MAX_BODY_BYTES, readObjectBody, tooLarge } from "./platform/http/body.js";
import { mountSignedFormDownload } from "./domains/broker-changes/signed-form.http.js";
import { mountCapitalGainsDownloads } from "./domains/holdings/capital-gains.http.js";
import { requestClientAddress } from "./platform/http/client-ip.js";
import { mountSignedFormUpload } from "./domains/broker-changes/signed-form-upload.http.js";
import { mountDocs } from "./platform/http/docs.js";
import { describeError, envelope, renderError, reportError } from "./platform/trpc/errors.js";
import { noStore } from "./platform/http/no-store.js";
import { createRestHandler } from "./platform/http/rest.js";
import { setRouteTemplate, UNMATCHED_ROUTE } from "./platform/http/route-template.js";
import { httpMetrics } from "./platform/metrics/http-metrics.js";
import { mountMetricsEndpoint } from "./platform/metrics/metrics-endpoint.js";
import { createPages } from "./pages/pages.js";
import { traceRequest } from "./platform/tracing/request-span.js";
import { createContext, restHooks } from "./domains/shared/context.js";
import type { Services } from "./domains/shared/services.js";
import { buildOpenApiDocument } from "./openapi.js";
import { appRouter } from "./router.js";

type Env = { Variables: { requestId: string; log: Log } };

export interface AppOptions {
  /** Null when ready, otherwise why not (database unreachable, migrations pending). */
  readiness: () => Promise<string | null>;
  /** Serve `cache: "static"` procedures from their first response (default true; benchmarks compare). */
  staticResponses?: boolean;
  /** The router served on /api, /trpc and /openapi.json (default the app router; benchmarks add procedures). */
  router?: AnyRouter;
}

const TOKEN_PATH = "/api/auth/v1/token";
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What a path without a route answers (and /metrics without its bearer). */
function noRoute(c: HonoContext<Env>): Response {
  setRouteTemplate(c, UNMATCHED_ROUTE);
  return c.json(envelope(c.get("requestId"), "NOT_FOUND", `No route for ${c.req.method} on this path`), 404);
}

export function createApp(services: Services, options: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  const router = options.router ?? appRouter;
  const rest = createRestHandler(router, restHooks(services), { staticResponses: options.staticResponses ?? true });
  const openApiJson = JSON.stringify(buildOpenApiDocument(router));
  // Access lines carry only fixed fields (no secrets), so they skip the field redaction; PANs and link ids are masked.
  const accessLine = accessLineWriter(services.logger);

  app.use("*", httpMetrics());
  app.use("*", async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && INCOMING_REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
    c.set("requestId", requestId);
    c.set("log", lazyChild(services.logger, { request_id: requestId }));
    // Set before the response exists: afterwards Hono would rebuild the whole response to add it.
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await traceRequest(c, requestId, next);
    accessLine(requestId, c.req.method, c.req.path, c.res.status, Math.round(performance.now() - started));
  });

  app.use(TOKEN_PATH, noStore);
  app.use("/trpc/*", (c, next) => (c.req.path.includes("auth.token") ? noStore(c, next) : next()));
  const trustedHops = services.config.trustProxyHops;
  const clientIp = (c: HonoContext<Env>) => requestClientAddress(c, trustedHops);

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const problem = await options.readiness().catch(() => "database unreachable");
    if (problem === null) return c.json({ status: "ready" });
    return c.json(envelope(c.get("requestId"), "UNAVAILABLE", `Not ready: ${problem}`), 503);
  });
  if (services.config.metrics.token && services.config.metrics.port === undefined) mountMetricsEndpoint(app, services.config.metrics.token, noRoute);
  app.get("/openapi.json", (c) => c.body(openApiJson, 200, { "Content-Type": "application/json; charset=utf-8" }));
  mountDocs(app);

  app.use("/trpc/*", bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw tooLarge(); } }));
  app.all("/trpc/*", async (c) => {
    const response = await fetchRequestHandler({
      endpoint: "/trpc",
      req: c.req.raw,
      router,
      createContext: () =>
        createContext(services, {
          requestId: c.get("requestId"),
          authorization: c.req.header("authorization"),
          idempotencyKey: c.req.header("idempotency-key"),
          clientIp: clientIp(c),
          userAgent: c.req.header("user-agent"),
          origin: new URL(c.req.url).origin,
          log: c.get("log"),
        }),
      // The budget's RateLimit-* headers (and Retry-After on its 429) are set on the context; other
      // errors carry their own (Retry-After of a token-failure 429 or of a busy pool's 503).
      responseMeta: ({ ctx, errors }) => ({ headers: errorHeaders(ctx?.response.headers, errors) }),
      // The error formatter (src/domains/shared/procedures.ts) shapes the answer; this logs what the server got wrong.
      onError: ({ error }) => void reportError(error, c.get("requestId"), c.get("log")),
    });
    response.headers.set("X-Request-Id", c.get("requestId"));
    return response;
  });

  // Binary answers and the streamed upload, beside the JSON REST adapter below.
  mountSignedFormDownload(app, services);
  mountSignedFormUpload(app, services);
  mountCapitalGainsDownloads(app, services);

  app.all("/api/*", async (c) => {
    const method = c.req.method;
    const takesBody = method === "POST" || method === "PUT" || method === "PATCH";
    const isToken = c.req.path === TOKEN_PATH;
    let body = takesBody ? await readObjectBody(c.req.raw, { allowForm: isToken, fromNode: (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined }) : undefined;
    let authorization = c.req.header("authorization");
    if (isToken && body && authorization?.startsWith("Basic ")) {
      body = { ...basicCredentials(authorization), ...body };
      authorization = undefined;
    }
    const url = c.req.url;
    const result = await rest({
      method,
      target: url.slice(url.indexOf("/", url.indexOf("//") + 2)),
      body,
      requestId: c.get("requestId"),
      authorization,
      idempotencyKey: c.req.header("idempotency-key"),
      clientIp: clientIp(c),
      userAgent: c.req.header("user-agent"),
      origin: url.slice(0, url.indexOf("/", url.indexOf("//") + 2)),
      ifNoneMatch: c.req.header("if-none-match"),
      log: c.get("log"),
    });
    setRouteTemplate(c, result.route ?? UNMATCHED_ROUTE);
    if (result.error !== undefined || result.status >= 400) {
      return sendError(c, result.error ?? new AppError("INTERNAL", "Internal error"));
    }
    if (result.status === 304) return c.body(null, 304, result.headers);
    // A Response of its own with a plain header object (X-Request-Id included): Hono's c.body would
    // gather the headers in a Headers object, which @hono/node-server then copies back into one.
    return new Response(result.json ?? "", {
      status: result.status,
      headers: { ...result.headers, "Content-Type": "application/json; charset=utf-8", "X-Request-Id": c.get("requestId") },
    });
  });

  app.route("/", createPages(services));

  app.notFound(noRoute);
  app.onError((error, c) => sendError(c, error));
  return app;
}

function errorHeaders(base: Record<string, string> | undefined, errors: readonly unknown[]): Record<string, string> | undefined {
  if (errors.length === 0) return base;
  const headers = { ...base };
  for (const error of errors) Object.assign(headers, describeError(error).headers);
  return headers;
}

function sendError(c: HonoContext<Env>, error: unknown): Response {
  const { status, body, headers } = renderError(error, c.get("requestId"), c.get("log"));
  // The rest of an oversized body is never read, so the connection cannot be reused.
  if (status === 413) headers.Connection = "close";
  return c.json(body, status as 400, headers);
}

/** RFC 6749 2.3.1: client_secret_basic, with form-urlencoded id and secret. */
function basicCredentials(header: string): Record<string, string> {
  const decoded = Buffer.from(header.slice("Basic ".length).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return {};
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return { client_id: decode(decoded.slice(0, colon)), client_secret: decode(decoded.slice(colon + 1)) };
}
