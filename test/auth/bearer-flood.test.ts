import type { ServerType } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { AuthService } from "../../src/domains/auth/auth.service.js";
import type { Db } from "../../src/platform/db/client.js";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();

/** Look-ups of bearer tokens in access_tokens made by the server under test: all, at once now, most at once. */
let tokenQueries = 0;
let inFlight = 0;
let mostInFlight = 0;
/** The clock of the server's authentication and address budget: tests move it. */
let now = Date.now();
let baseUrl: string;
let server: ServerType;
const ADDRESS_BURST = 5;

beforeAll(async () => {
  const counted = app.prisma.$extends({
    query: {
      accessToken: {
        async findFirst({ args, query }) {
          tokenQueries += 1;
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          try {
            return await query(args);
          } finally {
            inFlight -= 1;
          }
        },
      },
    },
  }) as unknown as Db;
  const services = {
    ...app.services,
    config: { ...app.config, trustProxyHops: 1 },
    auth: new AuthService(counted, { now: () => now }),
    addressBudget: new RequestBudget({ rps: 0.1, burst: ADDRESS_BURST }, () => now),
  };
  server = await startHttpServer(createApp(services, { readiness: async () => null }).fetch, httpServerOptions(app.config, { port: 0, hostname: "127.0.0.1" }));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const madeUp = () => `mfat_${randomBytes(32).toString("base64url")}`;

async function list(from: string, token: string | undefined) {
  const headers: Record<string, string> = { "x-forwarded-for": from };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseUrl}/api/investors/v1`, { headers });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as any };
}

describe("a flood of made-up bearer tokens (security review, issue 25)", () => {
  it("spends the address's budget: beyond it 429 RATE_LIMITED with Retry-After and no database query", async () => {
    const from = "198.51.100.20";
    const before = tokenQueries;
    for (let i = 0; i < ADDRESS_BURST; i++) expect((await list(from, madeUp())).status).toBe(401);
    expect(tokenQueries - before).toBe(ADDRESS_BURST);

    for (let i = 0; i < 20; i++) {
      const res = await list(from, madeUp());
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        success: false,
        error: { code: "RATE_LIMITED", message: "Too many failed authentications from this address; retry after 10 s" },
        request_id: res.headers.get("x-request-id"),
      });
      expect(res.headers.get("retry-after")).toBe("10");
      expect(res.headers.get("ratelimit-remaining")).toBe("0");
    }
    // Requests without a token, or with a malformed header, spend the same budget.
    expect((await list(from, undefined)).status).toBe(429);
    expect(tokenQueries - before).toBe(ADDRESS_BURST);

    // Another address (and another IPv6 /64) has its own budget.
    expect((await list("198.51.100.21", madeUp())).status).toBe(401);
    expect((await list("2001:db8:1:2::1", madeUp())).status).toBe(401);
    for (let i = 0; i < ADDRESS_BURST - 1; i++) await list(`2001:db8:1:2::${i + 2}`, madeUp());
    expect((await list("2001:db8:1:2:ffff::9", madeUp())).status).toBe(429);

    // Once the budget refills (0.1/s: one request in 10 s), one more failure is allowed.
    now += 10_000;
    expect((await list(from, madeUp())).status).toBe(401);
    expect((await list(from, madeUp())).status).toBe(429);
  });

  it("does not touch a valid token's calls, nor do they spend the address's budget", async () => {
    const d = await app.newDistributor();
    const from = "198.51.100.30";
    for (let i = 0; i < ADDRESS_BURST + 3; i++) expect((await list(from, d.token)).status).toBe(200);
    for (let i = 0; i < ADDRESS_BURST; i++) expect((await list(from, madeUp())).status).toBe(401);
    expect((await list(from, madeUp())).status).toBe(429);
    // A token seen valid keeps working from the flooded address, even once its 30 s memory has lapsed.
    expect((await list(from, d.token)).status).toBe(200);
    now += 31_000;
    const before = tokenQueries;
    expect((await list(from, d.token)).status).toBe(200);
    expect(tokenQueries - before).toBe(1);
  });

  it("lets made-up tokens from many addresses hold one pooled connection at a time (the token checks' share)", async () => {
    mostInFlight = 0;
    const before = tokenQueries;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => list(`203.0.113.${i + 1}`, madeUp())));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(401));
    expect(tokenQueries - before).toBe(30);
    expect(mostInFlight).toBe(1);
  });

  it("remembers an unknown token for 60 s: the same made-up token twice costs one query", async () => {
    const token = madeUp();
    const before = tokenQueries;
    expect((await list("198.51.100.40", token)).status).toBe(401);
    expect((await list("198.51.100.41", token)).status).toBe(401);
    expect(tokenQueries - before).toBe(1);
    now += 61_000;
    expect((await list("198.51.100.42", token)).status).toBe(401);
    expect(tokenQueries - before).toBe(2);
  });
});
