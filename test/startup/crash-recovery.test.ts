import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { investorBody } from "../helpers/factories.js";
import { freePort, runEntry, waitFor, waitForOutput, type Started } from "../helpers/process.js";

/**
 * kill -9 of the service in the middle of dispatching a burst of orders, then a restart: every order
 * leaves PENDING within 2 minutes, is booked once at the (sandbox) exchange and has one event for its move.
 * The database is a test database (DATABASE_URL), so it survives the kill.
 */

const ORDERS = 300;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}, 30_000);

it("after kill -9 mid-dispatch and a restart, every order leaves PENDING within 2 minutes, booked once, with one event", async () => {
  const db = await createTestDatabase();
  cleanups.push(db.drop);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-crash-"));
  await chmod(dataDir, 0o755);
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env = {
    DATABASE_URL: db.url,
    MF_DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: "warn",
    MF_SANDBOX_CLIENT_ID: "crash-test-client",
    MF_SANDBOX_CLIENT_SECRET: "crash-test-secret-0123456789",
  };
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  cleanups.push(() => sql.end());
  const count = async (query: string, params: unknown[] = []) => Number((await sql.query<{ n: string }>(query, params)).rows[0]!.n);
  const start = (): Started => {
    const started = runEntry("src/main.ts", [], env);
    cleanups.push(async () => {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill("SIGKILL");
    });
    return started;
  };

  const first = start();
  await waitForOutput(first, /Sandbox client_secret/, 90_000);
  await sql.query(
    `INSERT INTO schemes (scheme_code, isin_growth, name, amc_code, amc_name, category, scheme_type, updated_at)
     VALUES ('CRASH01', 'INT0CRASH001', 'Crash Test Scheme', 'TEST_AMC', 'Test Mutual Fund', 'Equity Scheme', 'Open Ended Schemes', now())`,
  );
  // Its exchange code, for both holding modes (what the exchange's scheme master would give).
  await sql.query(
    `INSERT INTO exchange_schemes (code, isin, name, transaction_mode, purchase_allowed, redemption_allowed, sip_allowed, stp_allowed, swp_allowed, switch_allowed)
     VALUES ('BSECRASH01', 'INT0CRASH001', 'Crash Test Scheme', 'BOTH', true, true, true, true, true, true)`,
  );
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const token = (await call("POST", "/api/auth/v1/token", undefined, {
    grant_type: "client_credentials",
    client_id: env.MF_SANDBOX_CLIENT_ID,
    client_secret: env.MF_SANDBOX_CLIENT_SECRET,
  })).body.access_token as string;
  const investor = await call("POST", "/api/investors/v1", token, investorBody());
  expect(investor.status).toBe(201);
  expect((await call("GET", `/api/simulation/investors/v1/${investor.body.id}/register`, token)).status).toBe(200);

  // The burst: placed over HTTP while the worker dispatches; kill -9 once dispatch is well under way,
  // with dispatch jobs running, while orders are still arriving.
  let placed = 0;
  let killed = false;
  const placeOne = async () => {
    const res = await call("POST", "/api/orders/v1/", token, {
      investment_account_id: investor.body.investment_account_id,
      order_type: "LUMPSUM_PURCHASE",
      scheme_code: "CRASH01",
      amount: 5000,
      purchase_type: "FRESH",
    });
    expect(res.status).toBe(201);
    placed++;
  };
  const lanes = Array.from({ length: 10 }, async () => {
    while (!killed && placed < ORDERS) {
      try {
        await placeOne();
      } catch (error) {
        if (!killed) throw error; // a request cut by the kill is expected
      }
    }
  });
  const dispatchLocked = () => count(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'orders__dispatch' AND locked_at IS NOT NULL`);
  const accepted = () => count(`SELECT count(*) AS n FROM orders WHERE status = 'ACCEPTED'`);
  await waitFor("dispatch under way", async () => (await accepted()) >= 50 && (await dispatchLocked()) > 0, 60_000, 5);
  first.child.kill("SIGKILL");
  killed = true;
  await first.exited;
  await Promise.all(lanes);
  const pendingAtKill = await count(`SELECT count(*) AS n FROM orders WHERE status = 'PENDING'`);
  const lockedAtKill = await dispatchLocked();
  const bookedButPending = await count(
    `SELECT count(*) AS n FROM orders o JOIN sandbox_exchange_records r ON r.kind = 'ORDER' AND r.reference = o.id WHERE o.status = 'PENDING'`,
  );
  // The case the recovery is for: dispatch jobs held by a process that no longer exists.
  expect(lockedAtKill).toBeGreaterThan(0);
  expect(pendingAtKill).toBeGreaterThan(0);
  // A placement adds its dispatch job just after its order commits: the kill may fall in between (taken up by the
  // sweep the restarted worker queues, orders__queue_lost_dispatches).
  const withoutJob = await count(
    `SELECT count(*) AS n FROM orders o WHERE o.status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = 'orders__dispatch:' || o.id)`,
  );
  console.log(`at the kill: ${pendingAtKill} PENDING, ${lockedAtKill} dispatch jobs locked, ${bookedButPending} booked at the exchange but PENDING, ${withoutJob} without a dispatch job`);

  const restartedAt = Date.now();
  const second = start();
  await waitForOutput(second, /Sandbox client_secret/, 90_000);
  await waitFor("every order to leave PENDING", async () => (await count(`SELECT count(*) AS n FROM orders WHERE status = 'PENDING'`)) === 0, 120_000, 250);
  const recoveredInMs = Date.now() - restartedAt;
  console.log(`every order left PENDING ${recoveredInMs} ms after the restart`);
  expect(recoveredInMs).toBeLessThan(120_000);

  const total = await count(`SELECT count(*) AS n FROM orders`);
  expect(await count(`SELECT count(*) AS n FROM orders WHERE status = 'ACCEPTED'`)).toBe(total);
  // One booking per order at the exchange, and nothing else booked.
  expect(await count(`SELECT count(*) AS n FROM sandbox_exchange_records WHERE kind = 'ORDER'`)).toBe(total);
  expect(await count(`SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM sandbox_exchange_records r WHERE r.kind = 'ORDER' AND r.reference = o.id)`)).toBe(0);
  // Exactly one event per order: its order.accepted.
  const events = await sql.query<{ resource_id: string; events: string[] }>(
    `SELECT resource_id, array_agg(event ORDER BY id) AS events FROM events WHERE resource_type = 'order' GROUP BY resource_id`,
  );
  expect(events.rows).toHaveLength(total);
  expect(events.rows.filter((r) => r.events.length !== 1 || r.events[0] !== "order.accepted")).toEqual([]);
  // No job is left held by the killed process.
  expect(await dispatchLocked()).toBe(0);

  second.child.kill("SIGTERM");
  expect(await second.exited).toBe(0);
}, 240_000);
