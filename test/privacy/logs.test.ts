import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPrisma } from "../../src/platform/db/client.js";
import { enqueue } from "../../src/domains/shared/jobs/enqueue.js";
import { ExchangeUnavailableError, type ExchangePort } from "../../src/integrations/exchange/port.js";
import { startWorker } from "../../src/worker.js";
import { capturingLogger } from "../helpers/logs.js";
import { useTestApp, type TestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";

const app = useTestApp();

type Line = Record<string, unknown>;
const parsed = (lines: string[]): Line[] => lines.map((l) => JSON.parse(l) as Line);

/** A logger whose JSON lines land in `lines`, as the app's own do in `app.logs`. */
const withApplicationName = (url: string, name: string) => `${url}${url.includes("?") ? "&" : "?"}application_name=${name}`;

/** Ends the connections a pool opened under `applicationName`, as a database restart would; answers how many. */
async function terminateConnections(test: TestApp, applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: test.databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ done: boolean }>(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
      [applicationName],
    );
    return rows.filter((row) => row.done).length;
  } finally {
    await admin.end();
  }
}

describe("the access log", () => {
  it.each([
    ["/api/investors/v1/inv_QCBPU7552I", "/api/investors/v1/inv_QCXXXXX52I"],
    ["/api/investors/v1/qcbpu7552i/holdings", "/api/investors/v1/qcXXXXX52i/holdings"],
    ["/api/investors/v1/%51CBPU7552I", "/api/investors/v1/QCXXXXX52I"],
    ["/api/investors/v1/x%2FQCBPU7552I", "/api/investors/v1/x%2FQCXXXXX52I"],
    ["/api/public/v1/order-links/lnk_01k9x2m3n4p5q6r7s8t9v0w1x2y3z4a5", "/api/public/v1/order-links/lnk_01k9***"],
    ["/links/lnk_01k9x2m3n4p5q6r7s8t9v0w1x2y3z4a5/confirm", "/links/lnk_01k9***/confirm"],
  ])("logs %s as %s", async (path, logged) => {
    const requestId = `path-log-${Math.random().toString(36).slice(2)}`;
    const { token } = await app.newDistributor();
    await app.http("GET", path, { token, headers: { "x-request-id": requestId } });
    const lines = app.logs.filter((l) => l.includes(requestId));
    expect(parsed(lines).find((l) => l.msg === "request")).toMatchObject({ method: "GET", path: logged, status: 404 });
    expect(lines.join("\n").toLowerCase()).not.toContain("cbpu7552");
    expect(lines.join("\n")).not.toContain("x2m3n4p5");
  });
});

describe("worker jobs", () => {
  it("log one short line per job: task, job id, attempt, outcome and duration, never the job or its payload", async () => {
    const { lines, logger } = capturingLogger("debug");
    const investor = (await app.http("POST", "/api/investors/v1", { token: (await app.newDistributor()).token, json: investorBody() })).body;
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    await enqueue(app.prisma, "auth__purge_expired_tokens", {});
    // A job that fails: the exchange cannot be reached.
    const unreachable = new Proxy({} as ExchangePort, {
      get: () => async () => {
        throw new ExchangeUnavailableError("connect ECONNREFUSED exchange");
      },
    });
    await enqueue(app.prisma, "investors__register", { investor_id: investor.id });
    const worker = await startWorker({ ...app.services, logger, exchange: unreachable }, app.databaseUrl);
    try {
      await expect.poll(() => parsed(lines).filter((l) => l.msg === "job completed" || l.msg === "job failed").length, { timeout: 15_000 }).toBe(2);
    } finally {
      await worker.stop();
    }
    const all = parsed(lines);
    const completed = all.find((l) => l.msg === "job completed")!;
    expect(completed).toEqual({
      level: 30, time: expect.any(String), component: "worker", msg: "job completed",
      task: "auth__purge_expired_tokens", job_id: expect.stringMatching(/^\d+$/), attempt: 1, max_attempts: 25, outcome: "success", duration_ms: expect.any(Number),
    });
    const failed = all.find((l) => l.msg === "job failed")!;
    expect(failed).toEqual({
      level: 50, time: expect.any(String), component: "worker", msg: "job failed",
      task: "investors__register", job_id: expect.stringMatching(/^\d+$/), attempt: 1, max_attempts: 25, outcome: "failure", duration_ms: expect.any(Number),
      error: { type: "ExchangeUnavailableError", message: "connect ECONNREFUSED exchange" },
    });
    const text = lines.join("\n");
    for (const leak of ['"payload"', '"job":', investor.id, "run_at", "locked_by", "stack", "    at "]) expect([leak, text.includes(leak)]).toEqual([leak, false]);
    for (const line of lines.filter((l) => l.includes('"task"'))) expect(line.length).toBeLessThan(300);
  });
});

describe("a lost database connection", () => {
  // The server's notice, or (when the socket closes first) pg's own error: either way code and message only.
  const LOST = /^worker (database|liveness) connection lost/;
  const REASONS = [{ code: "57P01", message: "terminating connection due to administrator command" }, { message: "Connection terminated unexpectedly" }];

  it("is one short line per connection of the worker's pool, with the error's code and message, never the pg client", async () => {
    const { lines, logger } = capturingLogger("debug");
    const worker = await startWorker({ ...app.services, logger }, withApplicationName(app.databaseUrl, "worker-pool-test"));
    try {
      await expect.poll(() => lines.some((l) => l.includes("Worker connected")), { timeout: 10_000 }).toBe(true);
      const before = lines.length;
      const terminated = await terminateConnections(app, "worker-pool-test");
      expect(terminated).toBeGreaterThan(0);
      // The pool's connections, and the worker's liveness connection (its advisory lock and heartbeat).
      const lost = () => parsed(lines.slice(before)).filter((l) => LOST.test(String(l.msg)));
      await expect.poll(() => lost().length, { timeout: 10_000 }).toBe(terminated);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // One line per connection: not one per listener, nor one per error event of the same connection.
      expect(lost()).toHaveLength(terminated);
      for (const line of lost()) {
        expect(line).toEqual({ level: 40, time: expect.any(String), component: "worker", msg: expect.stringMatching(LOST), error: expect.anything() });
        expect(REASONS).toContainEqual(line.error);
      }
      const after = lines.slice(before);
      expect(after.filter((l) => l.includes("client generated error"))).toEqual([]);
      for (const leak of ["password", "connectionParameters", "postgres://", "application_name", "worker-pool-test"]) {
        expect([leak, after.join("\n").includes(leak)]).toEqual([leak, false]);
      }
      // graphile-worker's own reconnection lines (its listener) come through the same adapter, short too.
      for (const line of after.filter((l) => !l.includes("Worker connected"))) expect(line.length).toBeLessThan(300);
    } finally {
      await worker.stop().catch(() => {});
    }
  });

  it("is one short line for the request pool (Prisma) too", async () => {
    const { lines, logger } = capturingLogger("debug");
    const prisma = createPrisma(withApplicationName(app.databaseUrl, "prisma-pool-test"), 2, logger);
    try {
      await prisma.$queryRawUnsafe("SELECT 1");
      expect(await terminateConnections(app, "prisma-pool-test")).toBe(1);
      await expect.poll(() => parsed(lines).filter((l) => l.msg === "database connection lost").length, { timeout: 10_000 }).toBe(1);
      expect(parsed(lines)).toEqual([{ level: 40, time: expect.any(String), msg: "database connection lost", error: expect.anything() }]);
      expect(REASONS).toContainEqual(parsed(lines)[0]!.error);
      expect(await prisma.$queryRawUnsafe("SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
    } finally {
      await prisma.$disconnect();
    }
  });
});
