import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";
import { restHooks } from "../../src/domains/shared/context.js";
import { createRestHandler } from "../../src/platform/http/rest.js";
import type { AppError } from "../../src/platform/lib/errors.js";
import { appRouter } from "../../src/router.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();

/** The budget's clock: 5 requests/s, burst 10; tests move it. */
let clock = 1_000_000;
let baseUrl: string;
let server: ServerType;

beforeAll(async () => {
  const services = { ...app.services, budget: new RequestBudget({ rps: 5, burst: 10 }, () => clock) };
  server = await startHttpServer(
    createApp(services, { readiness: async () => null }).fetch,
    httpServerOptions(app.config, { port: 0, hostname: "127.0.0.1" }),
  );
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function call(path: string, options: { token?: string; method?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

const budgetHeaders = (res: { headers: Headers }) => ({
  limit: res.headers.get("ratelimit-limit"),
  remaining: res.headers.get("ratelimit-remaining"),
  reset: res.headers.get("ratelimit-reset"),
  retryAfter: res.headers.get("retry-after"),
});

function expectRefused(res: Awaited<ReturnType<typeof call>>, headers: { remaining: string; reset: string; retryAfter: string }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    success: false,
    error: { code: "RATE_LIMITED", message: `Too many requests for this API client; retry after ${headers.retryAfter} s` },
    request_id: res.headers.get("x-request-id"),
  });
  expect(budgetHeaders(res)).toEqual({ limit: "10", ...headers });
}

describe("the request budget of an API client (5/s, burst 10 here)", () => {
  it("answers within it with RateLimit headers, beyond it 429 RATE_LIMITED with Retry-After, and refills with time", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      // The first answer runs the procedure, the others come from the static responses: both spend.
      const res = await call("/api/masters/v1/countries", { token: d.token });
      expect(res.status).toBe(200);
      expect(budgetHeaders(res)).toEqual({ limit: "10", remaining: String(10 - i), reset: String(Math.ceil(i / 5)), retryAfter: null });
    }
    expectRefused(await call("/api/masters/v1/countries", { token: d.token }), { remaining: "0", reset: "2", retryAfter: "1" });
    expectRefused(await call("/api/investors/v1", { token: d.token }), { remaining: "0", reset: "2", retryAfter: "1" });

    clock += 200; // one request's worth
    const one = await call("/api/investors/v1", { token: d.token });
    expect(one.status).toBe(200);
    expect(budgetHeaders(one)).toEqual({ limit: "10", remaining: "0", reset: "2", retryAfter: null });
    expectRefused(await call("/api/investors/v1", { token: d.token }), { remaining: "0", reset: "2", retryAfter: "1" });

    clock += 1000;
    const refilled = await call("/api/investors/v1", { token: d.token });
    expect(refilled.status).toBe(200);
    expect(budgetHeaders(refilled)).toEqual({ limit: "10", remaining: "4", reset: "2", retryAfter: null });
    clock += 60_000;
    expect(budgetHeaders(await call("/api/investors/v1", { token: d.token }))).toEqual({
      limit: "10",
      remaining: "9",
      reset: "1",
      retryAfter: null,
    });
  });

  it("is per API client: another client is not affected", async () => {
    const a = await app.newDistributor();
    const b = await app.newDistributor();
    for (let i = 0; i < 10; i++) expect((await call("/api/investors/v1", { token: a.token })).status).toBe(200);
    expect((await call("/api/investors/v1", { token: a.token })).status).toBe(429);
    const other = await call("/api/investors/v1", { token: b.token });
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe("9");
  });

  it("is not spent by unauthenticated requests, which carry no RateLimit headers", async () => {
    const d = await app.newDistributor();
    for (const token of [undefined, "mfat_not-a-real-token", `${d.token}x`]) {
      for (let i = 0; i < 5; i++) {
        const res = await call("/api/investors/v1", { token });
        expect(res.status).toBe(401);
        expect(res.headers.get("ratelimit-limit")).toBeNull();
        expect(res.headers.get("ratelimit-remaining")).toBeNull();
      }
    }
    expect((await call("/api/investors/v1", { token: d.token })).headers.get("ratelimit-remaining")).toBe("9");
  });

  it("is spent by /trpc calls too, one per call of a batch", async () => {
    const d = await app.newDistributor();
    const input = encodeURIComponent(JSON.stringify({}));
    const single = await call(`/trpc/masters.countries?input=${input}`, { token: d.token });
    expect(single.status).toBe(200);
    expect(budgetHeaders(single)).toEqual({ limit: "10", remaining: "9", reset: "1", retryAfter: null });

    const batchInput = encodeURIComponent(JSON.stringify({ 0: {}, 1: {}, 2: {} }));
    const batch = await call(`/trpc/masters.countries,investors.list,masters.countries?batch=1&input=${batchInput}`, { token: d.token });
    expect(batch.status).toBe(200);
    expect(budgetHeaders(batch)).toEqual({ limit: "10", remaining: "6", reset: "1", retryAfter: null });

    expect((await call("/api/investors/v1", { token: d.token })).headers.get("ratelimit-remaining")).toBe("5");
    for (let i = 0; i < 5; i++) expect((await call(`/trpc/masters.countries?input=${input}`, { token: d.token })).status).toBe(200);

    const refused = await call(`/trpc/masters.countries?input=${input}`, { token: d.token });
    expect(refused.status).toBe(429);
    expect(budgetHeaders(refused)).toEqual({ limit: "10", remaining: "0", reset: "2", retryAfter: "1" });
    expect(refused.body.error.message).toBe("Too many requests for this API client; retry after 1 s");
    expect(refused.body.error.data).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429, appCode: "RATE_LIMITED" });
  });

  it("is spent by a token request: an empty budget refuses a new token (none is minted), wrong secrets stay 401", async () => {
    const d = await app.newDistributor();
    const body = { grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret };
    const issued = await call("/api/auth/v1/token", { method: "POST", json: body });
    expect(issued.status).toBe(200);
    expect(budgetHeaders(issued)).toEqual({ limit: "10", remaining: "9", reset: "1", retryAfter: null });
    for (let i = 0; i < 9; i++) expect((await call("/api/investors/v1", { token: d.token })).status).toBe(200);

    const tokensBefore = await app.prisma.accessToken.count({ where: { apiClient: { clientId: d.client_id } } });
    const refused = await call("/api/auth/v1/token", { method: "POST", json: body });
    expectRefused(refused, { remaining: "0", reset: "2", retryAfter: "1" });
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await app.prisma.accessToken.count({ where: { apiClient: { clientId: d.client_id } } })).toBe(tokensBefore);

    const wrong = await call("/api/auth/v1/token", { method: "POST", json: { ...body, client_secret: "wrong-secret" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: "invalid_client" });
  });
});

describe("the default budget", () => {
  it("is 100 requests/s with a burst of 200, from MF_RATE_LIMIT_RPS and MF_RATE_LIMIT_BURST", async () => {
    expect(app.config.rateLimit).toEqual({ rps: 100, burst: 200 });
    const d = await app.newDistributor();
    const res = await app.http("GET", "/api/investors/v1", { token: d.token });
    expect(res.headers.get("ratelimit-limit")).toBe("200");
    // The token request spent one; by the next request the real clock may have refilled it.
    expect(["198", "199"]).toContain(res.headers.get("ratelimit-remaining"));
  });
});

describe("the REST handler's result for a static response", () => {
  it("carries the status of the error: 429 beyond the budget, 401 without a token", async () => {
    const d = await app.newDistributor();
    const rest = createRestHandler(appRouter, restHooks({ ...app.services, budget: new RequestBudget({ rps: 1, burst: 1 }, () => clock) }), { staticResponses: true });
    const target = "/api/masters/v1/countries";
    const get = (authorization: string | undefined) =>
      rest({
        method: "GET",
        requestId: "req_static",
        authorization,
        idempotencyKey: undefined,
        clientIp: "127.0.0.1",
        body: undefined,
        target,
        ifNoneMatch: undefined,
      });
    expect((await get(`Bearer ${d.token}`)).status).toBe(200); // runs the procedure and keeps the answer
    const refused = await get(`Bearer ${d.token}`); // served from the kept answer, beyond the budget
    expect(refused.status).toBe(429);
    expect((refused.error as AppError).appCode).toBe("RATE_LIMITED");
    const anonymous = await get(undefined);
    expect(anonymous.status).toBe(401);
    expect((anonymous.error as AppError).appCode).toBe("UNAUTHORIZED");
  });
});
