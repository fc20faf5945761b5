import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { ensureDatabaseExists } from "../../src/platform/db/database.js";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../src/platform/db/embedded.js";
import { investorBody } from "../helpers/factories.js";
import { freePort, runEntry, waitFor, waitForOutput, type Started } from "../helpers/process.js";

/**
 * The database restarts under load (an upgrade or a failover does this) and the service recovers by itself.
 * The service runs as `npm start` does, on a PostgreSQL this test owns (an embedded server of its own, given
 * as DATABASE_URL), so the test can stop it (fast shutdown, as `pg_ctl stop -m fast`) and start it again on
 * the same port number while placements stream in over HTTP.
 */

const OUTAGE_MS = 5_000;
const EVERY_MS = 200;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}, 30_000);

interface Answer {
  sentAt: number;
  ms: number;
  status?: number;
  retryAfter?: string | null;
  body?: Record<string, unknown>;
  failure?: string;
}

it("a PostgreSQL restart under a stream of placements: 201 or 503 with the envelope, ready again in 10 s, every order dispatched once", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mf-db-restart-"));
  await chmod(dir, 0o755); // the postgres system user must traverse it
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, "pg");
  const pgPort = await freePort();
  let server: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir, port: pgPort });
  cleanups.push(() => server.stop());
  await ensureDatabaseExists(server.adminUrl, "mf");
  const databaseUrl = server.urlFor("mf");

  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    MF_DATA_DIR: path.join(dir, "data"),
    PORT: String(port),
    LOG_LEVEL: "info",
    MF_SANDBOX_CLIENT_ID: "db-restart-client",
    MF_SANDBOX_CLIENT_SECRET: "db-restart-secret-0123456789",
  };
  const service: Started = runEntry("src/main.ts", [], env);
  cleanups.push(async () => {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill("SIGKILL");
  });
  await waitForOutput(service, /Sandbox client_secret/, 90_000);

  const sql = new pg.Client({ connectionString: databaseUrl });
  sql.on("error", () => {});
  await sql.connect();
  await sql.query(
    `INSERT INTO schemes (scheme_code, isin_growth, name, amc_code, amc_name, category, scheme_type, updated_at)
     VALUES ('RESTART01', 'INT0RSTRT001', 'Restart Test Scheme', 'TEST_AMC', 'Test Mutual Fund', 'Equity Scheme', 'Open Ended Schemes', now())`,
  );
  await sql.query(
    `INSERT INTO exchange_schemes (code, isin, name, transaction_mode, purchase_allowed, redemption_allowed, sip_allowed, stp_allowed, swp_allowed, switch_allowed)
     VALUES ('BSERESTART01', 'INT0RSTRT001', 'Restart Test Scheme', 'BOTH', true, true, true, true, true, true)`,
  );
  await sql.end();

  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, url: string, token?: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  const token = (await call("POST", "/api/auth/v1/token", undefined, {
    grant_type: "client_credentials",
    client_id: env.MF_SANDBOX_CLIENT_ID,
    client_secret: env.MF_SANDBOX_CLIENT_SECRET,
  })).body.access_token as string;
  const investor = await call("POST", "/api/investors/v1", token, investorBody());
  expect(investor.status).toBe(201);
  expect((await call("GET", `/api/simulation/investors/v1/${investor.body.id}/register`, token)).status).toBe(200);

  // The stream: a placement every EVERY_MS, each with its own Idempotency-Key, none waiting for another.
  const answers: Promise<Answer>[] = [];
  const placeOne = async (): Promise<Answer> => {
    const sentAt = Date.now();
    try {
      const res = await call("POST", "/api/orders/v1/", token, {
        investment_account_id: investor.body.investment_account_id,
        order_type: "LUMPSUM_PURCHASE",
        scheme_code: "RESTART01",
        amount: 5000,
        purchase_type: "FRESH",
      }, { "idempotency-key": randomUUID() });
      return { sentAt, ms: Date.now() - sentAt, status: res.status, retryAfter: res.headers.get("retry-after"), body: res.body };
    } catch (error) {
      return { sentAt, ms: Date.now() - sentAt, failure: String(error) };
    }
  };
  let streaming = true;
  const stream = (async () => {
    while (streaming) {
      answers.push(placeOne());
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  })();
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await pause(2_000);
  const postmasterPid = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
  const stoppedAt = Date.now();
  process.kill(postmasterPid, "SIGINT"); // fast shutdown: sessions are terminated (57P01), new ones refused
  await waitFor("PostgreSQL to stop", async () => !(await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => "")), 15_000, 50);
  await pause(OUTAGE_MS - (Date.now() - stoppedAt));
  const readyDuringOutage = await call("GET", "/readyz");
  server = await startEmbeddedPostgres({ dataDir, port: pgPort });
  const backAt = Date.now();
  await waitFor("/readyz to answer 200", async () => (await call("GET", "/readyz").catch(() => ({ status: 0 }))).status === 200, 10_000, 100);
  const readyAfterMs = Date.now() - backAt;
  await pause(4_000);
  streaming = false;
  await stream;
  const all = await Promise.all(answers);

  expect(readyDuringOutage.status).toBe(503);
  expect(readyDuringOutage.body).toMatchObject({ success: false, error: { code: "UNAVAILABLE" } });
  expect(readyAfterMs).toBeLessThan(10_000);
  // Every answer: a 201, or a 503 with the envelope and Retry-After; no other status, no socket error, none slow.
  expect(all.filter((a) => a.failure !== undefined)).toEqual([]);
  expect(all.filter((a) => a.ms >= 15_000)).toEqual([]);
  const unavailable = all.filter((a) => a.status === 503);
  expect(all.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
  for (const answer of unavailable) {
    expect(answer.retryAfter).toBe("5");
    expect(answer.body).toEqual({
      success: false,
      error: { code: "UNAVAILABLE", message: "The service is temporarily unavailable; retry shortly" },
      request_id: expect.any(String),
    });
  }
  // The outage was seen, and the service placed orders on both sides of it.
  const created = all.filter((a) => a.status === 201);
  expect(unavailable.length).toBeGreaterThan(0);
  expect(created.filter((a) => a.sentAt < stoppedAt).length).toBeGreaterThan(0);
  expect(created.filter((a) => a.sentAt > backAt).length).toBeGreaterThan(0);

  // Every order leaves PENDING (the worker's jobs resumed), booked once at the (sandbox) exchange, one event each.
  const check = new pg.Client({ connectionString: databaseUrl });
  await check.connect();
  cleanups.push(() => check.end());
  const count = async (query: string) => Number((await check.query<{ n: string }>(query)).rows[0]!.n);
  await waitFor("every order to leave PENDING", async () => (await count(`SELECT count(*) AS n FROM orders WHERE status = 'PENDING'`)) === 0, 40_000, 250);
  const dispatchedAfterMs = Date.now() - backAt;
  const total = await count(`SELECT count(*) AS n FROM orders`);
  // An order exists for each 201 (a 503 may still have committed: its client retries with the same key).
  expect(total).toBeGreaterThanOrEqual(created.length);
  expect(await count(`SELECT count(*) AS n FROM orders WHERE status = 'ACCEPTED'`)).toBe(total);
  expect(await count(`SELECT count(*) AS n FROM sandbox_exchange_records WHERE kind = 'ORDER'`)).toBe(total);
  expect(await count(`SELECT count(DISTINCT reference) AS n FROM sandbox_exchange_records WHERE kind = 'ORDER'`)).toBe(total);
  const events = await check.query<{ resource_id: string; events: string[] }>(
    `SELECT resource_id, array_agg(event ORDER BY id) AS events FROM events WHERE resource_type = 'order' GROUP BY resource_id`,
  );
  expect(events.rows).toHaveLength(total);
  expect(events.rows.filter((r) => r.events.length !== 1 || r.events[0] !== "order.accepted")).toEqual([]);

  console.log(
    `placements: ${all.length} (${created.length} 201, ${unavailable.length} 503), slowest ${Math.max(...all.map((a) => a.ms))} ms; ` +
      `/readyz 200 ${readyAfterMs} ms after the database was back; ${total} orders, all ACCEPTED ${dispatchedAfterMs} ms after it`,
  );
  service.child.kill("SIGTERM");
  expect(await service.exited).toBe(0);
  const lines = service.output().split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as { level: number; msg: string; component?: string }];
    } catch {
      return [];
    }
  });
  // The outage in the log: one line for the worker (not one per retry), few for the requests; no error but jobs'
  // own failures (a dispatch that met the outage, to run again); the runner, if graphile-worker stopped it, running again.
  const said = (msg: string) => lines.filter((l) => l.msg.startsWith(msg));
  expect(said("the worker cannot reach the database")).toHaveLength(1);
  expect(said("the worker reaches the database again")).toHaveLength(1);
  expect(said("requests answered 503").length).toBeLessThanOrEqual(2);
  expect(lines.filter((l) => l.level >= 50 && l.msg !== "job failed")).toEqual([]);
  expect(said("the job runner runs again")).toHaveLength(said("the job runner stopped").length);
  console.log(`the job runner was restarted ${said("the job runner runs again").length} time(s)`);
}, 120_000);
