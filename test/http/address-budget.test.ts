import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { useTestApp } from "../helpers/app.js";
import { publicPath } from "../helpers/order-links.js";

const app = useTestApp();
const clock = 1_000_000;
let baseUrl: string;
let server: ServerType;

beforeAll(async () => {
  const services = {
    ...app.services,
    config: { ...app.config, trustProxyHops: 1 },
    budget: new RequestBudget({ rps: 1, burst: 100 }, () => clock, { maxBuckets: 1 }),
    addressBudget: new RequestBudget({ rps: 1, burst: 2 }, () => clock, { maxBuckets: 2 }),
  };
  server = await startHttpServer(createApp(services, { readiness: async () => null }).fetch, httpServerOptions(app.config, { port: 0, hostname: "127.0.0.1" }));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (path: string, from: string, token?: string) =>
  fetch(`${baseUrl}${path}`, { headers: { "x-forwarded-for": from, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe("address budgets live apart from API clients' (security review, issue 25)", () => {
  it("have their own limits and map: addresses never crowd out an API client's spent bucket", async () => {
    const d = await app.newDistributor();
    const first = await get("/api/investors/v1", "198.51.100.1", d.token);
    expect(first.headers.get("ratelimit-remaining")).toBe("99");

    // Public link requests spend the address budget (burst 2), not the client's (burst 100).
    expect((await get(publicPath("lnk_unknown"), "198.51.100.1")).status).toBe(404);
    expect((await get(publicPath("lnk_unknown"), "198.51.100.1")).status).toBe(404);
    const third = await get(publicPath("lnk_unknown"), "198.51.100.1");
    expect(third.status).toBe(429);
    expect(third.headers.get("ratelimit-limit")).toBe("2");
    expect(third.headers.get("ratelimit-remaining")).toBe("0");

    // The address map (2 buckets) is full of spent buckets: a third address is refused, nothing is evicted.
    expect((await get(publicPath("lnk_unknown"), "198.51.100.2")).status).toBe(404);
    const full = await get(publicPath("lnk_unknown"), "198.51.100.3");
    expect(full.status).toBe(429);
    expect(full.headers.get("retry-after")).toBe("1");
    const body = (await full.json()) as { error: { message: string } };
    expect(body.error.message).toBe("Too many requests from this address; retry after 1 s");

    // The client's bucket, alone in its own map of one, was never touched by any of this.
    expect((await get("/api/investors/v1", "198.51.100.9", d.token)).headers.get("ratelimit-remaining")).toBe("98");
  });
});
