/**
 * POST /api/orders/v1/ (a lump-sum purchase for a registered investor) through our stack against the raw
 * placement: plain node:http with a pg pool of the same size running the same three statements (what
 * placement reads: account, investor, bank accounts, scheme; the order; then its dispatch job in an add_jobs
 * call shared with the placements waiting meanwhile; see bench/harness/raw-sql.ts), 50 connections each, measured in the same run. The worker is not started,
 * so jobs queue up as they would behind a busy worker.
 *   npm run bench:orders     (BENCH_SECONDS=10 per side, BENCH_WARMUP_SECONDS=2; --smoke for a tiny run)
 * Profile the servers with `node --cpu-prof --import tsx bench/order-place.ts` (the load generator runs
 * in its own process).
 */
import pg from "pg";
import { failOnUnexpected, runBaseline, warmAndRun, type LoadSpec } from "./harness/load.js";
import { SECONDS, WARMUP_SECONDS } from "./harness/options.js";
import { lumpSumFixture } from "./harness/placement-fixture.js";
import { rawPlacement, type LumpSumBody } from "./harness/raw-sql.js";
import { startRawServer } from "./harness/raw-server.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const CONNECTIONS = 50;
const PATH = "/api/orders/v1/";

const stack = await openStack({ name: "orders" });
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: stack.services.config.dbPoolSize });
try {
  const { services, distributorId } = stack;
  const { body } = await lumpSumFixture(stack);

  const ours = await listenApp(stack, stack.app.fetch);
  const raw = await startRawServer((b) => rawPlacement(pool, distributorId, b as LumpSumBody));
  const spec = (port: number): LoadSpec => ({
    url: `http://127.0.0.1:${port}${PATH}`, method: "POST", connections: CONNECTIONS, seconds: SECONDS, expectStatus: 201,
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" }, bodies: [JSON.stringify(body)],
  });
  const rawResult = await runBaseline(spec(raw.port), WARMUP_SECONDS);
  const ourResult = await warmAndRun(spec(ours.port), WARMUP_SECONDS);

  const { rows } = await pool.query<{ orders: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM graphile_worker.jobs WHERE task_identifier = 'orders__dispatch') AS jobs`,
  );
  printTable(`POST ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s per side (after ${WARMUP_SECONDS} s warm-up), pool ${services.config.dbPoolSize}; ${rows[0]!.orders} orders and ${rows[0]!.jobs} dispatch jobs written`, [
    compare("POST /api/orders/v1/ (lump sum)", "req/s", ourResult, "node:http + pg, same three statements", rawResult, { minRatio: 0.35, maxP99Factor: 2 }),
  ]);
  failOnUnexpected({ raw: rawResult, ours: ourResult });
  ours.server.close();
  raw.server.close();
} finally {
  await pool.end();
  await stack.close();
}
