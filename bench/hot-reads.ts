/**
 * Hot paths on a small database against the cheapest thing a server can do with PostgreSQL (issue 28,
 * point 6), all in one run, 50 connections each:
 * - GET /api/orders/v1/{id} and POST /api/holdings/v1/lookup (BENCH_LOOKUP_PANS PANs of 5 positions) against
 *   plain node:http + pg doing one indexed select by key (the order's row by its id); and, with no target, the
 *   lookup of BENCH_HISTORY_PANS other PANs whose positions have 24 transactions each (cost, XIRR and lots computed);
 * - POST /api/orders/v1/ (lump sum) against plain node:http + pg doing one insert transaction (BEGIN, the
 *   order's row, COMMIT).
 * Unlike the other benchmarks the baselines do not send our statements: how many statements a path sends,
 * and what they cost, is part of what is measured. Each path and its baseline take turns in short slices
 * (harness/load.ts, runInterleaved): on this shared host the speed changes within seconds, and runs of ten
 * seconds one after the other met different spells.
 *   npm run bench:hot-reads     (BENCH_PAIRS=10 pairs of BENCH_SLICE_SECONDS=2 per path, after BENCH_WARMUP_SECONDS=2
 *                                of each side; BENCH_SLICES=1 prints every slice's rate and CPU; --smoke for a tiny run)
 * Profile our side with `BENCH_ONLY=ours node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/hot-reads.ts`
 * (one run of BENCH_SECONDS, no baseline) and bench/harness/top-frames.ts.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { NOT_RUN, combineRuns, cpuPerRequest, failOnUnexpected, interleavedWithBaseline, pairRatios, pgCpuPerRequest, type LoadResult, type LoadSpec } from "./harness/load.js";
import { PAIRS, SECONDS, SLICE_SECONDS, WARMUP_SECONDS, setting } from "./harness/options.js";
import { lumpSumFixture } from "./harness/placement-fixture.js";
import { startRawServer } from "./harness/raw-server.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";
import { panOf } from "./scale/ids.js";

const CONNECTIONS = 50;
const LOOKUP_PANS = setting("BENCH_LOOKUP_PANS", 20_000, 200);
const PER_PAN = 5;
/** PANs whose 5 positions each carry HISTORY_TXNS transactions: the lookup with its figures' real work (no target). */
const HISTORY_PANS = setting("BENCH_HISTORY_PANS", 2_000, 50);
const HISTORY_TXNS = 24;

const ONE_SELECT = `SELECT * FROM orders WHERE id = $1`;
const ONE_INSERT = `INSERT INTO orders (id, distributor_id, investor_id, investment_account_id, order_type, status, payment_status, purchase_type,
  holding_mode, scheme_code, amount, all_units, details, request_hash, created_at, updated_at, exchange_scheme_code)
  VALUES ($1, $2, $3, $4, 'LUMPSUM_PURCHASE', 'PENDING', 'UNPAID', 'FRESH', $5, $6, $7::numeric, false, '{}'::jsonb, $8, now(), now(), $9) RETURNING id, created_at`;

const stack = await openStack({ name: "hot-reads" });
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: stack.services.config.dbPoolSize });
try {
  const { services, distributorId } = stack;
  const { investorId, body: placement } = await lumpSumFixture(stack);
  const hashes = Array.from({ length: LOOKUP_PANS + HISTORY_PANS }, (_, n) => services.cipher.lookupHash(panOf(n)));
  await pool.query(
    `INSERT INTO holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_code, amc_name, isin, scheme_name,
       units, nav, nav_date, market_value, balance_date, holding_nature, pan_hash, feed_file_id)
     SELECT $1, CASE WHEN k % 2 = 1 THEN 'KFINTECH' ELSE 'CAMS' END, 'AMC' || ((n + k) % 40), n || '/' || k, 'S' || ((n * 3 + k) % 500), (100000 + (n + k) % 500)::text,
       'Bench Mutual Fund', 'INF000B' || lpad(((n + k) % 9999)::text, 4, '0') || '1', 'Bench Scheme ' || ((n + k) % 500) || ' Growth',
       ((n % 9000 + k) || '.125')::numeric, 21.3456, '2026-11-16', round((n % 9000 + k) * 21.35, 2), '2026-11-16', 'SINGLE', h.hash, 'hff_bench'
     FROM unnest($2::text[]) WITH ORDINALITY AS h(hash, n), generate_series(0, ${PER_PAN - 1}) AS k`,
    [distributorId, hashes],
  );
  // The history PANs' positions each with two years of monthly SIPs at a NAV of 21 (the positions' is 21.3456: a
  // small gain, which Newton's method solves; a deep loss falls back to bisection, several times the work), a
  // redemption every 12th month.
  await pool.query(
    `INSERT INTO holding_transactions (registrar, amc_code, txn_no, distributor_id, folio_no, registrar_scheme_code, scheme_code, type, registrar_type_code,
       trade_date, amount_paise, units, nav, stamp_duty_paise, pan_hash, feed_file_id)
     SELECT p.registrar, p.amc_code, p.folio_no || '-' || i, p.distributor_id, p.folio_no, p.registrar_scheme_code, p.scheme_code,
       CASE WHEN i % 12 = 11 THEN 'REDEMPTION' ELSE 'SIP' END, 'B', date '2024-11-05' + make_interval(months => i),
       CASE WHEN i % 12 = 11 THEN 252000 ELSE 500000 END, CASE WHEN i % 12 = 11 THEN 120 ELSE 238.095 END, 21, CASE WHEN i % 12 = 11 THEN 0 ELSE 25 END,
       p.pan_hash, 'hff_bench'
     FROM holding_positions p, generate_series(0, ${HISTORY_TXNS - 1}) AS i
     WHERE p.pan_hash = ANY($1::text[])`,
    [hashes.slice(LOOKUP_PANS)],
  );
  await pool.query("VACUUM ANALYZE holding_positions, holding_transactions");
  const { rows: facts } = await pool.query<{ holding_mode: string }>(`SELECT holding_mode FROM investment_accounts WHERE id = $1`, [placement.investment_account_id]);
  const holdingMode = facts[0]!.holding_mode;

  const ours = await listenApp(stack, stack.app.fetch);
  const raw = await startRawServer(async (body, url) => {
    if (body === undefined) {
      const { rows } = await pool.query(ONE_SELECT, [url.slice(url.lastIndexOf("/") + 1)]);
      return rows[0] ? { status: 200, body: rows[0] } : { status: 404, body: { error: "not found" } };
    }
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query(ONE_INSERT, [
        `ord_${randomUUID().replaceAll("-", "")}`, distributorId, investorId, placement.investment_account_id, holdingMode, placement.scheme_code,
        placement.amount.toFixed(2), randomUUID(), "BSEBENCH01",
      ]);
      await client.query("COMMIT");
      return { status: 201, body: rows[0] };
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  });

  const headers = { authorization: `Bearer ${stack.token}`, "content-type": "application/json" };
  const placed = await fetch(`http://127.0.0.1:${ours.port}/api/orders/v1/`, { method: "POST", headers, body: JSON.stringify(placement) });
  const orderId = ((await placed.json()) as { id: string }).id;
  if (placed.status !== 201) throw new Error(`placement check failed: ${placed.status}`);
  const lookupBodies = Array.from({ length: Math.min(LOOKUP_PANS, 20_000) }, (_, i) => JSON.stringify({ pan: panOf((i * 7919) % LOOKUP_PANS) })).sort(() => Math.random() - 0.5);
  const historyBodies = Array.from({ length: HISTORY_PANS }, (_, i) => JSON.stringify({ pan: panOf(LOOKUP_PANS + i) })).sort(() => Math.random() - 0.5);
  for (const [port, path] of [[ours.port, `/api/orders/v1/${orderId}`], [raw.port, `/orders/${orderId}`]] as const) {
    const check = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    if (check.status !== 200 || ((await check.json()) as { id: string }).id !== orderId) throw new Error(`GET check failed on ${path}: ${check.status}`);
  }
  const lookupCheck = await fetch(`http://127.0.0.1:${ours.port}/api/holdings/v1/lookup`, { method: "POST", headers, body: lookupBodies[0] });
  if (lookupCheck.status !== 200 || ((await lookupCheck.json()) as { holdings: unknown[] }).holdings.length !== PER_PAN) throw new Error(`lookup check failed: ${lookupCheck.status}`);
  const historyCheck = await fetch(`http://127.0.0.1:${ours.port}/api/holdings/v1/lookup`, { method: "POST", headers, body: historyBodies[0] });
  const history = (await historyCheck.json()) as { holdings: Array<{ cost_value: number | null }> };
  if (historyCheck.status !== 200 || history.holdings.length !== PER_PAN || history.holdings.some((h) => h.cost_value === null)) throw new Error(`lookup with history check failed: ${historyCheck.status}`);

  const load = (port: number, path: string, method: "GET" | "POST", expectStatus: number, bodies?: string[]): LoadSpec => ({
    url: `http://127.0.0.1:${port}${path}`, method, headers, bodies, connections: CONNECTIONS, seconds: SECONDS, expectStatus,
  });
  // BENCH_HOT=get,lookup,history,placement (default all): which of our paths run, e.g. for a CPU profile of one.
  const only = new Set((process.env.BENCH_HOT ?? "get,lookup,history,placement").split(","));
  // Each path against its baseline in slices taking turns.
  const interleaved = async (name: string, baseline: LoadSpec, ours: LoadSpec): Promise<[LoadResult[], LoadResult[]]> =>
    only.has(name) ? interleavedWithBaseline(baseline, ours) : [[NOT_RUN], [NOT_RUN]];
  const select = load(raw.port, `/orders/${orderId}`, "GET", 200);
  const insert = load(raw.port, "/orders", "POST", 201, [JSON.stringify(placement)]);
  const runs = {
    getOrder: await interleaved("get", select, load(ours.port, `/api/orders/v1/${orderId}`, "GET", 200)),
    lookup: await interleaved("lookup", select, load(ours.port, "/api/holdings/v1/lookup", "POST", 200, lookupBodies)),
    history: await interleaved("history", select, load(ours.port, "/api/holdings/v1/lookup", "POST", 200, historyBodies)),
    placement: await interleaved("placement", insert, load(ours.port, "/api/orders/v1/", "POST", 201, [JSON.stringify(placement)])),
  };
  if (process.env.BENCH_SLICES) for (const [name, sides] of Object.entries(runs)) printSlices(name, sides);
  const combined = (name: keyof typeof runs) => ({ baseline: combineRuns(runs[name][0]), ours: combineRuns(runs[name][1]) });
  const results = { getOrder: combined("getOrder"), lookup: combined("lookup"), history: combined("history"), placement: combined("placement") };

  printTable(`Hot paths on a small database (${(LOOKUP_PANS * PER_PAN).toLocaleString("en")} positions), ${CONNECTIONS} connections, pool ${services.config.dbPoolSize}; each path and its baseline in ${PAIRS} pairs of ${SLICE_SECONDS} s slices taking turns (after ${WARMUP_SECONDS} s warm-up each), the median slice of each side`, [
    compare("GET /api/orders/v1/{id}", "req/s", results.getOrder.ours, "node:http + pg, one indexed select by key", results.getOrder.baseline, { minRatio: 0.5 }),
    compare("POST /api/holdings/v1/lookup", "req/s", results.lookup.ours, "node:http + pg, one indexed select by key", results.lookup.baseline, { minRatio: 0.5 }),
    compare(`POST /api/holdings/v1/lookup, ${HISTORY_TXNS} transactions a position`, "req/s", results.history.ours, "node:http + pg, one indexed select by key", results.history.baseline),
    compare("POST /api/orders/v1/ (lump sum)", "req/s", results.placement.ours, "node:http + pg, one insert transaction", results.placement.baseline, { minRatio: 0.4 }),
  ]);
  // CPU per request, this process's (the servers) and PostgreSQL's: less disturbed by a busy machine than the rates.
  const cpu = (result: LoadResult) => `${cpuPerRequest(result).toFixed(1)} + ${pgCpuPerRequest(result).toFixed(1)}`;
  const cpuOf = (name: keyof typeof results) => `${cpu(results[name].ours)} against ${cpu(results[name].baseline)}`;
  console.log(`CPU per request (server + PostgreSQL, us): GET order ${cpuOf("getOrder")}; lookup ${cpuOf("lookup")}; lookup with history ${cpuOf("history")}; placement ${cpuOf("placement")}`);
  console.log(`ratios by pair of slices: GET order ${pairRatios(...runs.getOrder)}; lookup ${pairRatios(...runs.lookup)}; with history ${pairRatios(...runs.history)}; placement ${pairRatios(...runs.placement)}\n`);
  failOnUnexpected(Object.fromEntries(Object.entries(results).flatMap(([name, r]) => [[name, r.ours], [`${name} baseline`, r.baseline]])));
  ours.server.close();
  raw.server.close();
} finally {
  await pool.end();
  await stack.close();
}

/** Every slice of one path, in its order: each side's rate, then its server CPU per request (BENCH_SLICES=1). */
function printSlices(name: string, [baseline, ours]: [LoadResult[], LoadResult[]]): void {
  const listed = (runs: LoadResult[], pick: (r: LoadResult) => number) => runs.map((r) => Math.round(pick(r))).join(" ");
  console.log(`${name}: req/s baseline ${listed(baseline, (r) => r.rate)}, ours ${listed(ours, (r) => r.rate)}; server CPU us baseline ${listed(baseline, cpuPerRequest)}, ours ${listed(ours, cpuPerRequest)}`);
}
