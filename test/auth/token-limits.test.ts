import type { ServerType } from "@hono/node-server";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { AuthService } from "../../src/domains/auth/auth.service.js";
import { tokenChecksFor } from "../../src/domains/auth/token-failures.js";
import { purgeExpiredTokens } from "../../src/domains/auth/jobs/purge-expired-tokens.js";
import { createPrisma } from "../../src/platform/db/client.js";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { sha256Hex } from "../../src/platform/lib/crypto.js";
import type { Services } from "../../src/domains/shared/services.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";

const app = useTestApp();
const TOKEN = "/api/auth/v1/token";
const WINDOW_MS = 300_000;

/** The clock of the token failure limits of `limited` (and `proxied`): tests move it. */
let now = Date.now();
let limited: string;
let proxied: string;
const servers: ServerType[] = [];

async function serveWith(services: Services): Promise<string> {
  const app = createApp(services, { readiness: async () => null });
  const server = await startHttpServer(app.fetch, httpServerOptions(services.config, { port: 0, hostname: "127.0.0.1" }));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const auth = new AuthService(app.prisma, { tokenFailures: app.config.tokenFailures, now: () => now });
  limited = await serveWith({ ...app.services, auth });
  proxied = await serveWith({ ...app.services, auth, config: { ...app.config, trustProxyHops: 1 } });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  body: any;
}

/** A token request over real HTTP from a chosen loopback address (Linux routes all of 127/8 to lo). */
function tokenRequest(
  baseUrl: string,
  options: { from: string; body: Record<string, unknown>; headers?: Record<string, string>; path?: string },
): Promise<Answer> {
  const payload = JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${options.path ?? TOKEN}`,
      {
        method: "POST",
        localAddress: options.from,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const credentials = (client_id: string, client_secret: string) => ({ grant_type: "client_credentials", client_id, client_secret });

const failuresOf = (where: { clientId?: string; ipKey?: string }) =>
  app.prisma.tokenFailure.count({
    where: { ...(where.clientId ? { clientKey: sha256Hex(where.clientId) } : {}), ...(where.ipKey ? { ipKey: where.ipKey } : {}) },
  });

function expectRefused(res: Answer, retryAfter: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    success: false,
    error: { code: "RATE_LIMITED", message: `Too many failed token requests; retry after ${retryAfter} s` },
    request_id: res.headers["x-request-id"],
  });
  expect(res.headers["retry-after"]).toBe(String(retryAfter));
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers.pragma).toBe("no-cache");
}

function expectInvalidClient(res: Answer): void {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: "invalid_client" });
  expect(res.headers["cache-control"]).toBe("no-store");
}

describe("failed token requests per client id", () => {
  it("after 10 failures the next request is 429 with Retry-After, even with the right secret, from any address", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: `127.0.1.${i}`, body: credentials(d.client_id, "wrong-secret") }));
    }
    expectRefused(await tokenRequest(limited, { from: "127.0.1.11", body: credentials(d.client_id, d.client_secret) }), 300);
    expectRefused(await tokenRequest(limited, { from: "127.0.1.12", body: credentials(d.client_id, d.client_secret) }), 300);
    expect(await failuresOf({ clientId: d.client_id })).toBe(10);

    // The addresses are not blocked: another client gets its token from them.
    const other = await app.newDistributor();
    const ok = await tokenRequest(limited, { from: "127.0.1.11", body: credentials(other.client_id, other.client_secret) });
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe("Bearer");
  });

  it("records nothing while blocked, and lifts the block when the window has passed (10 failures in any 5 minutes)", async () => {
    const d = await app.newDistributor();
    const started = now;
    for (let i = 1; i <= 5; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: `127.0.3.${i}`, body: credentials(d.client_id, "wrong-secret") }));
    }
    now = started + 60_000;
    for (let i = 6; i <= 10; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: `127.0.3.${i}`, body: credentials(d.client_id, "wrong-secret") }));
    }
    now = started + 100_000;
    expectRefused(await tokenRequest(limited, { from: "127.0.3.20", body: credentials(d.client_id, d.client_secret) }), 200);
    for (let i = 0; i < 5; i++) {
      expectRefused(await tokenRequest(limited, { from: "127.0.3.21", body: credentials(d.client_id, "wrong-secret") }), 200);
    }
    expect(await failuresOf({ clientId: d.client_id })).toBe(10);

    now = started + WINDOW_MS - 1;
    expectRefused(await tokenRequest(limited, { from: "127.0.3.20", body: credentials(d.client_id, d.client_secret) }), 1);

    // The first five have left the window: the right secret works, and five more failures block again.
    now = started + WINDOW_MS;
    const ok = await tokenRequest(limited, { from: "127.0.3.20", body: credentials(d.client_id, d.client_secret) });
    expect(ok.status).toBe(200);
    expect(ok.headers["cache-control"]).toBe("no-store");
    for (let i = 0; i < 5; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: `127.0.3.${30 + i}`, body: credentials(d.client_id, "wrong-secret") }));
    }
    expectRefused(await tokenRequest(limited, { from: "127.0.3.40", body: credentials(d.client_id, d.client_secret) }), 60);
    now = started + WINDOW_MS + 60_000;
    expect((await tokenRequest(limited, { from: "127.0.3.40", body: credentials(d.client_id, d.client_secret) })).status).toBe(200);
  });

  it("lets exactly 10 of 30 concurrent wrong secrets be tried; the other 20 are refused", async () => {
    const d = await app.newDistributor();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => tokenRequest(limited, { from: "127.0.4.1", body: credentials(d.client_id, "wrong-secret") })),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    expect(await failuresOf({ clientId: d.client_id })).toBe(10);
    expectRefused(await tokenRequest(limited, { from: "127.0.4.2", body: credentials(d.client_id, d.client_secret) }), 300);
  });
});

describe("failed token requests per client address", () => {
  it("after 10 failures from one address (any client ids), its next request is 429, even with the right secret", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: "127.0.2.1", body: credentials(`mfc_guess_${i}`, "wrong-secret") }));
    }
    expectRefused(await tokenRequest(limited, { from: "127.0.2.1", body: credentials(d.client_id, d.client_secret) }), 300);
    expectRefused(await tokenRequest(limited, { from: "127.0.2.1", body: credentials("mfc_guess_11", "wrong-secret") }), 300);
    expect(await failuresOf({ ipKey: "127.0.2.1" })).toBe(10);
    // The client itself is not blocked: from another address it gets its token.
    expect((await tokenRequest(limited, { from: "127.0.2.2", body: credentials(d.client_id, d.client_secret) })).status).toBe(200);
  });

  it("refuses over /trpc too, with the same Retry-After", async () => {
    for (let i = 1; i <= 10; i++) {
      expectInvalidClient(await tokenRequest(limited, { from: "127.0.2.5", body: credentials(`mfc_trpc_guess_${i}`, "wrong-secret") }));
    }
    const d = await app.newDistributor();
    const res = await tokenRequest(limited, { from: "127.0.2.5", path: "/trpc/auth.token", body: credentials(d.client_id, d.client_secret) });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe("Too many failed token requests; retry after 300 s");
    expect(res.body.error.data).toMatchObject({ httpStatus: 429, appCode: "RATE_LIMITED" });
    expect(res.headers["retry-after"]).toBe("300");
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("does not count malformed requests, which never check a secret", async () => {
    const d = await app.newDistributor();
    for (let i = 0; i < 12; i++) {
      const res = await tokenRequest(limited, { from: "127.0.5.1", body: { grant_type: "client_credentials", client_id: d.client_id } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: "client_secret", message: expect.any(String), reason: "required" }]);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
    expect((await tokenRequest(limited, { from: "127.0.5.1", body: credentials(d.client_id, d.client_secret) })).status).toBe(200);
    expect(await failuresOf({ ipKey: "127.0.5.1" })).toBe(0);
  });

  it("ignores X-Forwarded-For by default: the socket's address counts", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      const res = await tokenRequest(limited, {
        from: "127.0.6.1",
        body: credentials(`mfc_guess_${i}`, "wrong-secret"),
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
      expectInvalidClient(res);
    }
    const res = await tokenRequest(limited, {
      from: "127.0.6.1",
      body: credentials(d.client_id, d.client_secret),
      headers: { "x-forwarded-for": "198.51.100.99" },
    });
    expectRefused(res, 300);
    expect(await failuresOf({ ipKey: "127.0.6.1" })).toBe(10);
  });

  it("with MF_TRUST_PROXY=1 counts the address the proxy appended, whatever the client put before it", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      const res = await tokenRequest(proxied, {
        from: "127.0.7.1",
        body: credentials(`mfc_guess_${i}`, "wrong-secret"),
        headers: { "x-forwarded-for": `10.9.9.${i}, 203.0.113.7` },
      });
      expectInvalidClient(res);
    }
    expect(await failuresOf({ ipKey: "203.0.113.7" })).toBe(10);
    const spoofed = await tokenRequest(proxied, {
      from: "127.0.7.1",
      body: credentials(d.client_id, d.client_secret),
      headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7" },
    });
    expectRefused(spoofed, 300);
    const neighbour = await tokenRequest(proxied, {
      from: "127.0.7.1",
      body: credentials(d.client_id, d.client_secret),
      headers: { "x-forwarded-for": "203.0.113.8" },
    });
    expect(neighbour.status).toBe(200);
  });
});

describe("failure records", () => {
  it("are held in PostgreSQL: a second instance on the same database refuses too", async () => {
    const d = await app.newDistributor();
    for (let i = 1; i <= 10; i++) {
      expectInvalidClient(await tokenRequest(app.baseUrl, { from: `127.0.8.${i}`, body: credentials(d.client_id, "wrong-secret") }));
    }
    const prisma = createPrisma(app.databaseUrl, 2);
    try {
      const second = await serveWith({
        ...app.services,
        prisma,
        auth: new AuthService(prisma, { tokenFailures: app.config.tokenFailures }),
        budget: new RequestBudget(app.config.rateLimit),
      });
      const res = await tokenRequest(second, { from: "127.0.8.20", body: credentials(d.client_id, d.client_secret) });
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe("RATE_LIMITED");
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(280);
      expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(300);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("are counted under a database lock: two instances taking 30 concurrent wrong secrets let exactly 10 through", async () => {
    const d = await app.newDistributor();
    const prisma = createPrisma(app.databaseUrl, 5);
    try {
      const second = await serveWith({ ...app.services, prisma, auth: new AuthService(prisma, { tokenFailures: app.config.tokenFailures }) });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          tokenRequest(i % 2 === 0 ? app.baseUrl : second, { from: `127.0.10.${i + 1}`, body: credentials(d.client_id, "wrong-secret") }),
        ),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
      expect(await failuresOf({ clientId: d.client_id })).toBe(10);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("keep a hash of the presented client id, never the id itself, and are purged once out of the window", async () => {
    const swapped = "mfcs_this-looks-like-a-secret";
    expectInvalidClient(await tokenRequest(app.baseUrl, { from: "127.0.9.1", body: credentials(swapped, "mfc_id") }));
    const rows = await app.prisma.tokenFailure.findMany({ where: { ipKey: "127.0.9.1" } });
    expect(rows.map((r) => r.clientKey)).toEqual([sha256Hex(swapped)]);
    expect(JSON.stringify(await app.prisma.tokenFailure.findMany(), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(swapped);

    await app.prisma.tokenFailure.create({ data: { clientKey: "old", ipKey: "127.0.9.2", failedAt: new Date(Date.now() - WINDOW_MS - 1000) } });
    await runTask(app, purgeExpiredTokens, {});
    expect(await failuresOf({ ipKey: "127.0.9.2" })).toBe(0);
    expect(await failuresOf({ ipKey: "127.0.9.1" })).toBe(1);
  });
});

describe("token checks under a burst", () => {
  it("hold at most a quarter of the pool: 200 wrong client ids at once leave room for the API", async () => {
    const d = await app.newDistributor();
    const poolSize = 4;
    const prisma = createPrisma(app.databaseUrl, poolSize);
    try {
      const auth = new AuthService(prisma, { tokenFailures: app.config.tokenFailures, concurrentChecks: tokenChecksFor(poolSize) });
      const server = await serveWith({ ...app.services, prisma, auth, budget: new RequestBudget(app.config.rateLimit) });
      const listOrders = () => fetch(`${server}/api/orders/v1`, { headers: { authorization: `Bearer ${d.token}` } });
      expect((await listOrders()).status).toBe(200); // the pool's first connection is opened before the burst
      const burstStarted = performance.now();
      let burstMs = 0;
      const burst = Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          tokenRequest(server, { from: `127.0.${20 + (i >> 6)}.${(i & 63) + 1}`, body: credentials(`mfc_burst_${i}`, "wrong-secret") }),
        ),
      ).then((answers) => {
        burstMs = performance.now() - burstStarted;
        return answers;
      });
      // Sampled from outside (another pool): how many token checks hold their advisory locks at once.
      let done = false;
      let mostHolders = 0;
      const sampling = (async () => {
        while (!done) {
          const [row] = await app.prisma.$queryRaw<Array<{ holders: number }>>`
            SELECT count(DISTINCT pid)::int AS holders FROM pg_locks WHERE locktype = 'advisory' AND classid = 7206101 AND granted`;
          mostHolders = Math.max(mostHolders, row!.holders);
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const latencies: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const res = await listOrders();
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
      }
      const answers = await burst;
      done = true;
      await sampling;
      // Relative to the burst, not a wall-clock budget (the machine may be busy): starved of connections, the API's
      // requests would queue behind the whole burst.
      expect(Math.max(...latencies)).toBeLessThan(burstMs / 2);
      expect(mostHolders).toBe(1);
      const refused = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status === 401).length + refused.length).toBe(200);
      for (const res of refused) {
        expect(res.body).toEqual({
          success: false,
          error: { code: "UNAVAILABLE", message: "Too many token requests at once; retry shortly" },
          request_id: res.headers["x-request-id"],
        });
        expect(res.headers["retry-after"]).toBe("1");
        expect(res.headers["cache-control"]).toBe("no-store");
      }
      const recorded = await app.prisma.tokenFailure.count({ where: { clientKey: { in: answers.map((_, i) => sha256Hex(`mfc_burst_${i}`)) } } });
      expect(recorded).toBe(200 - refused.length);
    } finally {
      await prisma.$disconnect();
    }
  });
});
