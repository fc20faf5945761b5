/**
 * POST /api/investors/v1 (a valid investor with a PAN never sent before in every request) through our stack
 * against the raw creation: plain node:http with a pg pool of the same size sending the same statements in
 * the same transaction (BEGIN, the investor with its accounts, the registration job, COMMIT; see
 * bench/harness/raw-sql.ts), with the same keyed hash and encryption, 20 connections each, measured in the
 * same run. Issue 15 sets no target for this path: the table prints "-".
 *   npm run bench:investors     (BENCH_SECONDS=10 per side, BENCH_WARMUP_SECONDS=2; --smoke for a tiny run)
 * The worker is not started, so the registration jobs queue up as they would behind a busy worker.
 */
import pg from "pg";
import { investorBody } from "../test/helpers/factories.js";
import { failOnUnexpected, runBaseline, warmAndRun, type LoadSpec } from "./harness/load.js";
import { SECONDS, WARMUP_SECONDS } from "./harness/options.js";
import { rawInvestorCreation, type InvestorBody } from "./harness/raw-sql.js";
import { startRawServer } from "./harness/raw-server.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const CONNECTIONS = 20;
const PATH = "/api/investors/v1";
/** Replaced by a fresh PAN in every request (LoadSpec.freshPan), on both sides. */
const PAN = "@PAN@";

const stack = await openStack({ name: "investors" });
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: stack.services.config.dbPoolSize });
try {
  const { services, distributorId } = stack;
  const body = JSON.stringify(investorBody({ primary_holder: { ...investorBody().primary_holder, pan: PAN } }));

  const ours = await listenApp(stack, stack.app.fetch);
  const raw = await startRawServer((b) => rawInvestorCreation(pool, services.cipher, distributorId, b as InvestorBody));
  const spec = (port: number): LoadSpec => ({
    url: `http://127.0.0.1:${port}${PATH}`, method: "POST", connections: CONNECTIONS, seconds: SECONDS, expectStatus: 201,
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" }, bodies: [body], freshPan: PAN,
  });
  const rawResult = await runBaseline(spec(raw.port), WARMUP_SECONDS);
  const ourResult = await warmAndRun(spec(ours.port), WARMUP_SECONDS);

  const { rows } = await pool.query<{ investors: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM investors) AS investors, (SELECT count(*)::int FROM graphile_worker.jobs WHERE task_identifier = 'investors__register') AS jobs`,
  );
  printTable(`POST ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s per side (after ${WARMUP_SECONDS} s warm-up), pool ${services.config.dbPoolSize}; ${rows[0]!.investors} investors and ${rows[0]!.jobs} registration jobs written`, [
    compare("POST /api/investors/v1", "req/s", ourResult, "node:http + pg, same transaction", rawResult),
  ]);
  failOnUnexpected({ raw: rawResult, ours: ourResult });
  ours.server.close();
  raw.server.close();
} finally {
  await pool.end();
  await stack.close();
}
