import { expect } from "vitest";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { loadConfig } from "../../src/env.js";
import type { TestApp, TestResponse } from "./app.js";

/** The pool size a deployment gets without MF_DB_POOL_SIZE, for tests that must run with it. */
export const DEFAULT_POOL_SIZE = loadConfig({ MF_ENV: "sandbox" }).dbPoolSize;

/**
 * A burst of duplicates must finish within this: measured 70-610 ms (alone, and beside other test runs
 * at a load average of 10 on two cores), against 10-15 s when duplicates exhausted the pool.
 */
export const BURST_BOUND_MS = 2_000;
/** An unrelated request sent during the burst waits only its turn for a pooled connection. */
export const PROBE_BOUND_MS = 1_000;

export interface Burst {
  responses: TestResponse[];
  /** From the release of the gate to the last answer. */
  wallMs: number;
  /** The unrelated request, sent as the burst's transactions start to race. */
  probe: TestResponse;
  probeMs: number;
}

export interface BurstRequest {
  count: number;
  /**
   * The table whose inserts are held back until every pooled connection waits on a lock, so the
   * requests race inside their transactions as they do when they arrive at the same instant (one
   * process serving the test's own requests would otherwise see them one after another).
   */
  gate: string;
  send: (i: number) => Promise<TestResponse>;
  probe: () => Promise<TestResponse>;
}

/** Sends `count` requests at once and, once their transactions race, one unrelated request. */
export async function burstWithProbe(app: TestApp, request: BurstRequest): Promise<Burst> {
  const gate = new pg.Client({ connectionString: app.databaseUrl });
  await gate.connect();
  try {
    await gate.query("BEGIN");
    await gate.query(`LOCK TABLE ${request.gate} IN SHARE ROW EXCLUSIVE MODE`);
    const all = Promise.all(Array.from({ length: request.count }, (_, i) => request.send(i)));
    await untilConnectionsWait(gate, Math.min(request.count, DEFAULT_POOL_SIZE));
    await gate.query("COMMIT");
    const released = performance.now();
    const probed = await request.probe();
    const probeMs = performance.now() - released;
    const responses = await all;
    return { responses, wallMs: performance.now() - released, probe: probed, probeMs };
  } finally {
    await gate.end();
  }
}

/** Waits (at most 5 s) until `count` other connections of the database wait on a lock. */
async function untilConnectionsWait(client: pg.Client, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    // Inside the gate's transaction the activity view is read once unless its snapshot is cleared.
    await client.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (rows[0]!.waiting >= count) return;
    await sleep(10);
  }
}

/** How many responses had each status, e.g. `{201: 1, 409: 49}`. */
export function statusCounts(responses: TestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

/** The burst finished in time and the unrelated GET of `probeId` answered at its normal speed. */
export function expectLive(burst: Burst, probeId: string, label: string): void {
  console.info(`${label}: burst ${burst.wallMs.toFixed(0)} ms, concurrent GET ${burst.probeMs.toFixed(0)} ms`);
  expect(burst.probe.status).toBe(200);
  expect(burst.probe.body.id).toBe(probeId);
  expect(burst.probeMs).toBeLessThan(PROBE_BOUND_MS);
  expect(burst.wallMs).toBeLessThan(BURST_BOUND_MS);
}
