import type { ServerType } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { buildServices } from "../../src/build-services.js";
import { loadConfig } from "../../src/env.js";
import { isDatabaseUnavailable } from "../../src/platform/db/connection-errors.js";
import { createPrisma, ping, type Db } from "../../src/platform/db/client.js";
import { pendingMigrations } from "../../src/platform/db/migrate.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { DataCipher } from "../../src/platform/lib/crypto.js";
import { throttledWarning } from "../../src/platform/lib/throttled-warning.js";
import { useTestApp } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logs.js";
import { freePort } from "../helpers/process.js";

/**
 * The service whose database is out of reach (nothing listens on its port, as while PostgreSQL restarts):
 * every request that needs it answers 503 UNAVAILABLE with Retry-After, never a 500, and says so in one
 * warning line. (The restart itself, under load, is test/startup/db-restart.test.ts.)
 */

const live = useTestApp();
let prisma: Db;
let server: ServerType;
let base: string;
const { lines, parsed, logger } = capturingLogger("info");

beforeAll(async () => {
  const deadUrl = `postgres://postgres:postgres@127.0.0.1:${await freePort()}/mf`;
  const config = loadConfig({ MF_ENV: "sandbox", DATABASE_URL: deadUrl, LOG_LEVEL: "info" });
  prisma = createPrisma(deadUrl, 2);
  const services = buildServices({ config, prisma, poolSize: 2, logger, cipher: new DataCipher(randomBytes(32).toString("hex")) });
  const app = createApp(services, {
    readiness: async () => {
      await ping(prisma);
      return (await pendingMigrations(deadUrl)).length ? "migrations pending" : null;
    },
  });
  server = await startHttpServer(app.fetch, httpServerOptions(config, { port: 0, hostname: "127.0.0.1" }));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await prisma.$disconnect();
});

const UNAVAILABLE = { success: false, error: { code: "UNAVAILABLE", message: "The service is temporarily unavailable; retry shortly" }, request_id: expect.any(String) };

describe("a request while the database is out of reach", () => {
  it("answers 503 UNAVAILABLE with Retry-After 5 on REST: a token request, an authenticated read, a creation", async () => {
    const requests: Array<[string, string, Record<string, string>, string?]> = [
      ["POST", "/api/auth/v1/token", { "content-type": "application/json" }, JSON.stringify({ grant_type: "client_credentials", client_id: "c", client_secret: "s".repeat(24) })],
      ["GET", "/api/orders/v1/", { authorization: "Bearer mf_at_unknown" }],
      ["POST", "/api/investors/v1", { authorization: "Bearer mf_at_unknown", "content-type": "application/json", "idempotency-key": "k1" }, "{}"],
    ];
    for (const [method, path, headers, body] of requests) {
      const res = await fetch(`${base}${path}`, { method, headers, body });
      expect([path, res.status, res.headers.get("retry-after")]).toEqual([path, 503, "5"]);
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
  });

  it("answers 503 on /trpc too, with the envelope's code", async () => {
    const res = await fetch(`${base}/trpc/orders.list`, { headers: { authorization: "Bearer mf_at_unknown" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body = (await res.json()) as { error: { message: string; data: { appCode: string; httpStatus: number } } };
    expect(body.error.message).toBe(UNAVAILABLE.error.message);
    expect(body.error.data).toMatchObject({ appCode: "UNAVAILABLE", httpStatus: 503 });
  });

  it("/readyz answers 503 quickly; /healthz stays 200", async () => {
    const startedAt = Date.now();
    const ready = await fetch(`${base}/readyz`);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ success: false, error: { code: "UNAVAILABLE", message: "Not ready: database unreachable" } });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("logs one warning for a burst, with the error's code and no connection string", async () => {
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/api/orders/v1/`, { headers: { authorization: "Bearer mf_at_unknown" } })));
    const warnings = parsed().filter((l) => l.msg === "requests answered 503: the database is unreachable");
    // One for the first request of the file (none if another file of this test process logged one a moment ago);
    // the others fall in the same 10 s and are only counted.
    expect(warnings.length).toBeLessThanOrEqual(1);
    for (const warning of warnings) expect(warning).toMatchObject({ level: 40, error: { type: "PrismaClientKnownRequestError" } });
    expect(parsed().filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(lines.join("\n")).not.toContain("postgres://");
  });
});

describe("what counts as the database being out of reach", () => {
  it("the errors Prisma, its pg adapter and pg throw when PostgreSQL goes away, and nothing else", () => {
    const adapter = (cause: Record<string, unknown>) => Object.assign(new Error("x"), { code: "P2010", meta: { driverAdapterError: Object.assign(new Error(String(cause.kind)), { cause }) } });
    const reachable = [
      adapter({ kind: "postgres", code: "57P01", originalCode: "57P01" }),
      adapter({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }),
      adapter({ kind: "ConnectionClosed" }),
      Object.assign(new Error("Can't reach database server"), { code: "P1001" }),
      Object.assign(new Error("Server has closed the connection."), { code: "P1017" }),
      Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect", errno: -111 }),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("timeout exceeded when trying to connect"),
      new Error("wrapped", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) }),
    ];
    for (const error of reachable) expect([error.message, isDatabaseUnavailable(error)]).toEqual([error.message, true]);
    const faults = [
      adapter({ kind: "UniqueConstraintViolation", constraint: { fields: ["id"] } }),
      adapter({ kind: "postgres", code: "23514", originalCode: "23514" }),
      Object.assign(new Error("Timed out fetching a new connection from the connection pool"), { code: "P2024" }),
      new Error("Internal error"),
      "a string",
      null,
    ];
    for (const error of faults) expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("a real connection refused through Prisma", async () => {
    const error = await prisma.$queryRawUnsafe("SELECT 1").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // And a live database's own refusal is not an outage.
    const fault = await live.prisma.$queryRawUnsafe("SELECT 1/0").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(fault)).toBe(false);
  });
});

describe("a throttled warning", () => {
  it("logs the first event, then one per interval carrying how many were left out", () => {
    const { parsed: read, logger: log } = capturingLogger("info");
    let now = 0;
    const warn = throttledWarning("many at once", 10_000, () => now);
    for (const at of [0, 1, 2, 9_999, 10_000, 10_001, 25_000]) {
      now = at;
      warn(log, { n: at });
    }
    expect(read().map(({ msg, n, suppressed }) => ({ msg, n, suppressed }))).toEqual([
      { msg: "many at once", n: 0, suppressed: undefined },
      { msg: "many at once", n: 10_000, suppressed: 3 },
      { msg: "many at once", n: 25_000, suppressed: 1 },
    ]);
  });
});
