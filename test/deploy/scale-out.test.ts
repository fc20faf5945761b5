import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/build.js";
import { createTestDatabase } from "../helpers/db.js";
import { freePort, ROOT, runBuilt, waitForOutput, type Started } from "../helpers/process.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

/**
 * Scale-out: two API processes and two worker processes of the built service (real child processes,
 * MF_ROLE=api|worker) on one PostgreSQL. 1,000 orders go in through both APIs at once; each must reach the
 * (sandbox) exchange exactly once, each event must reach each webhook subscription exactly once, and both
 * workers must have taken part.
 *
 * How a dispatch is seen without touching the service: the sandbox exchange books every order it receives
 * with an INSERT ... ON CONFLICT DO NOTHING into sandbox_exchange_records (a repeat keeps the first booking),
 * so a BEFORE INSERT trigger, added to this test's database only, notes every receipt, repeats included,
 * with the receiving connection's application_name: each process gets its own through PGAPPNAME, which
 * node-postgres (under Prisma's adapter and graphile-worker) sends when it connects.
 */

const ORDERS = 1_000;
/** Requests in flight per API process while placing. */
const IN_FLIGHT_PER_API = 16;
const CLIENT_ID = "scale-out-client";
const CLIENT_SECRET = "scale-out-secret-0123456789";
const SCHEME_CODE = "103166"; // a seeded scheme: lump sums from 5,000

const RECEIPT_COUNTER = `
  CREATE TABLE test_exchange_receipts (kind text NOT NULL, reference text NOT NULL, app text NOT NULL);
  CREATE FUNCTION test_note_exchange_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO test_exchange_receipts VALUES (NEW.kind, NEW.reference, current_setting('application_name'));
    RETURN NEW;
  END $$;
  CREATE TRIGGER test_note_exchange_receipt BEFORE INSERT ON sandbox_exchange_records
    FOR EACH ROW EXECUTE FUNCTION test_note_exchange_receipt();
`;

let databaseUrl: string;
let db: pg.Client;
let receiver: Receiver;
let dataDir: string;
const services: Array<{ name: string; started: Started; port: number }> = [];
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const dist = await ensureBuilt();
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  databaseUrl = database.url;
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end());
  await db.query(RECEIPT_COUNTER);
  receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-scale-out-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  const shared = {
    DATABASE_URL: databaseUrl,
    MF_DATA_DIR: dataDir,
    // Every process must read what the others encrypted.
    MF_DATA_KEY: randomBytes(32).toString("hex"),
    MF_SANDBOX_CLIENT_ID: CLIENT_ID,
    MF_SANDBOX_CLIENT_SECRET: CLIENT_SECRET,
    MF_RATE_LIMIT_RPS: "100000",
    MF_RATE_LIMIT_BURST: "100000",
    MF_DB_POOL_SIZE: "8",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    NODE_EXTRA_CA_CERTS: path.join(ROOT, "test", "fixtures", "tls", "ca.pem"),
  };
  for (const [name, role] of [["api-a", "api"], ["api-b", "api"], ["worker-a", "worker"], ["worker-b", "worker"]] as const) {
    const port = await freePort();
    const started = runBuilt(path.join(dist, "main.js"), [], { ...shared, MF_ROLE: role, PORT: String(port), PGAPPNAME: `mf-${name}` });
    services.push({ name, started, port });
  }
  await Promise.all(services.map((s) => waitForOutput(s.started, /Mutual fund distribution service/, 90_000)));
}, 300_000);

afterAll(async () => {
  for (const { started } of services) if (started.child.exitCode === null) started.child.kill("SIGKILL");
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const apis = () => services.filter((s) => s.name.startsWith("api"));

async function call(port: number, method: string, pathname: string, token: string | null, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { "content-type": "application/json" } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

/** User + system CPU seconds a (Linux) process has used so far. */
async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Runs `work` for each item with at most `limit` at once. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

describe("two API and two worker processes on one PostgreSQL", () => {
  it("place 1,000 orders through both APIs: each reaches the exchange once, each event each subscription once, both workers work", async () => {
    const [apiA, apiB] = apis() as [(typeof services)[number], (typeof services)[number]];
    const tokenRes = await call(apiA.port, "POST", "/api/auth/v1/token", null, { grant_type: "client_credentials", client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(tokenRes.status).toBe(200);
    const token = tokenRes.body.access_token as string;

    // Two subscriptions, one through each API.
    const subscriptions: Array<{ id: string; path: string }> = [];
    for (const [api, hookPath, events] of [[apiA, "/hooks/all-orders", ["order.*"]], [apiB, "/hooks/accepted", ["order.accepted"]]] as const) {
      const res = await call(api.port, "POST", "/api/webhooks/v1/subscriptions", token, { url: receiver.url(hookPath), events });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      subscriptions.push({ id: res.body.data.id, path: hookPath });
    }
    // The sandbox seed's REGISTERED demo investor.
    const investors = await call(apiB.port, "GET", "/api/investors/v1?limit=100", token);
    expect(investors.status).toBe(200);
    const demo = (investors.body.data as Array<{ client_ref: string | null; investment_account_id: string }>).find((i) => i.client_ref === "demo-registered");
    expect(demo).toBeDefined();

    // Half the orders through each API, both at once.
    const startedAt = Date.now();
    const placed = new Map<string, string>(); // order id -> API
    await Promise.all([apiA, apiB].map((api, half) =>
      inParallel(Array.from({ length: ORDERS / 2 }, (_, i) => half * (ORDERS / 2) + i), IN_FLIGHT_PER_API, async (n) => {
        const res = await call(api.port, "POST", "/api/orders/v1/", token, {
          investment_account_id: demo!.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: SCHEME_CODE,
          amount: 5000, purchase_type: "FRESH", client_ref: `scale-out-${n}`,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        placed.set(res.body.id, api.name);
      }),
    ));
    const placedMs = Date.now() - startedAt;
    expect(placed.size).toBe(ORDERS);
    expect([...placed.values()].filter((api) => api === "api-a")).toHaveLength(ORDERS / 2);

    // Every order accepted by the exchange, and every event's deliveries made.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { rows } = await db.query<{ accepted: number; delivered: number }>(
        `SELECT (SELECT count(*)::int FROM orders WHERE status = 'ACCEPTED') AS accepted,
                (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'DELIVERED') AS delivered`,
      );
      if (rows[0]!.accepted === ORDERS && rows[0]!.delivered === 2 * ORDERS) break;
      if (Date.now() > deadline) throw new Error(`after 90 s: ${JSON.stringify(rows[0])} (want ${ORDERS} accepted, ${2 * ORDERS} delivered)`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const doneMs = Date.now() - startedAt;

    // Each order reached the exchange exactly once, through a worker.
    const receipts = await db.query<{ reference: string; app: string; times: number }>(
      "SELECT reference, min(app) AS app, count(*)::int AS times FROM test_exchange_receipts WHERE kind = 'ORDER' GROUP BY reference",
    );
    expect(receipts.rows.map((r) => r.reference).sort()).toEqual([...placed.keys()].sort());
    expect(receipts.rows.filter((r) => r.times !== 1)).toEqual([]);
    // Both workers dispatched a share (and only workers did).
    const byWorker = new Map<string, number>();
    for (const r of receipts.rows) byWorker.set(r.app, (byWorker.get(r.app) ?? 0) + 1);
    expect([...byWorker.keys()].sort()).toEqual(["mf-worker-a", "mf-worker-b"]);
    expect(Math.min(...byWorker.values())).toBeGreaterThan(0);

    // One order.accepted event per order, and nothing else for them.
    const events = await db.query<{ id: string; event: string; resource_id: string }>(
      "SELECT id, event, resource_id FROM events WHERE resource_type = 'order'",
    );
    expect(events.rows.map((e) => e.resource_id).sort()).toEqual([...placed.keys()].sort());
    expect(new Set(events.rows.map((e) => e.event))).toEqual(new Set(["order.accepted"]));

    // The receiver got each event exactly once per subscription (the delivery id names the event).
    await new Promise((r) => setTimeout(r, 1_000)); // room for a duplicate to arrive
    const deliveries = await db.query<{ id: string; event_id: string; subscription_id: string; attempts: number; status: string }>(
      "SELECT id, event_id, subscription_id, attempts, status FROM webhook_deliveries",
    );
    expect(deliveries.rows.filter((d) => d.status !== "DELIVERED" || d.attempts !== 1)).toEqual([]);
    const deliveryById = new Map(deliveries.rows.map((d) => [d.id, d]));
    expect(receiver.received).toHaveLength(2 * ORDERS);
    for (const { id: subscriptionId, path: hookPath } of subscriptions) {
      const received = receiver.received.filter((r) => r.url === hookPath);
      const eventIds = received.map((r) => {
        const delivery = deliveryById.get(String(r.headers["x-mf-delivery"]));
        expect(delivery?.subscription_id).toBe(subscriptionId);
        expect(r.headers["x-mf-event"]).toBe("order.accepted");
        return delivery!.event_id;
      });
      expect(eventIds).toHaveLength(ORDERS);
      expect(new Set(eventIds)).toEqual(new Set(events.rows.map((e) => e.id)));
      const orderIds = received.map((r) => (JSON.parse(r.body.toString("utf8")) as { data: { order_id: string } }).data.order_id);
      expect(new Set(orderIds)).toEqual(new Set(placed.keys()));
    }

    // The counter counts repeats: a second booking of an order is noted though the exchange keeps the first.
    const [anyOrder] = [...placed.keys()];
    await db.query("INSERT INTO sandbox_exchange_records (kind, reference, status, payload, updated_at) VALUES ('ORDER', $1, 'ACCEPTED', '{}', now()) ON CONFLICT DO NOTHING", [anyOrder]);
    const again = await db.query<{ times: number }>("SELECT count(*)::int AS times FROM test_exchange_receipts WHERE kind = 'ORDER' AND reference = $1", [anyOrder]);
    expect(again.rows[0]!.times).toBe(2);

    const cpuSeconds = await Promise.all(services.map(async (s) => `${s.name} ${await cpuSecondsOf(s.started.child.pid!)}`));
    // All four stop cleanly on SIGTERM.
    for (const { started } of services) started.child.kill("SIGTERM");
    const codes = await Promise.all(services.map((s) => s.started.exited));
    expect(codes, services.map((s) => `${s.name}:\n${s.started.output()}`).join("\n")).toEqual([0, 0, 0, 0]);

    // For the record (README "Deploying it"): placing and finishing times on this machine.
    console.info(`scale-out: ${ORDERS} orders placed in ${placedMs} ms, all accepted and delivered after ${doneMs} ms; dispatches ${JSON.stringify(Object.fromEntries(byWorker))}; CPU s since start: ${cpuSeconds.join(", ")}`);
  }, 240_000);
});
