/**
 * Holdings lookup benchmark: POST /api/holdings/v1/lookup through the whole stack (Hono, REST dispatcher,
 * auth, validation, keyed hash, query, summary) over BENCH_POSITIONS stored positions (default 5,000,000:
 * 1,000,000 PANs with 5 positions each, spread over 20 distributors), a random known PAN per request, 50
 * connections; against the raw lookup measured in the same run: plain node:http, the PAN's keyed hash and
 * the same statement (bench/harness/raw-sql.ts) on a pg pool of the same size.
 *   npm run bench:holdings-lookup     (BENCH_PAIRS=10 pairs of BENCH_SLICE_SECONDS=2 slices, the sides taking turns, after
 *                                      BENCH_WARMUP_SECONDS=2 of each; --smoke for a tiny run)
 *
 * The positions are loaded with COPY into the table with its indexes dropped, then the indexes are rebuilt (setup,
 * not measured). Positions keep no PAN ciphertext (only its keyed hash), as the import writes them.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createDistributor } from "../src/domains/auth/distributors.service.js";
import { combineRuns, cpuPerRequest, failOnUnexpected, interleavedWithBaseline, pairRatios, pgCpuPerRequest, type LoadSpec } from "./harness/load.js";
import { PAIRS, SECONDS, SLICE_SECONDS, WARMUP_SECONDS, setting } from "./harness/options.js";
import { LOOKUP } from "./harness/raw-sql.js";
import { startRawServer } from "./harness/raw-server.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";
import { panOf } from "./scale/ids.js";

const POSITIONS = setting("BENCH_POSITIONS", 5_000_000, 5_000);
const CONNECTIONS = 50;
const PER_PAN = 5;
const DISTRIBUTORS = 20;
const SAMPLE = 20_000;
const PATH = "/api/holdings/v1/lookup";

const stack = await openStack({ name: "lookup" });
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: stack.services.config.dbPoolSize });
try {
  const { services } = stack;
  // The benchmark's distributor (with the token) is the first; the others share the table.
  const distributors: string[] = [stack.distributorId];
  for (let d = 1; d < DISTRIBUTORS; d++) {
    distributors.push((await createDistributor(services.prisma, { name: `Bench ${d}`, arn: `ARN-8${String(d).padStart(5, "0")}` })).distributor_id);
  }
  const started = performance.now();
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query("ALTER TABLE holding_positions DROP CONSTRAINT holding_positions_pkey");
  await client.query("DROP INDEX holding_positions_pan_hash_idx");
  const pans = POSITIONS / PER_PAN;
  function* lines(): Generator<string> {
    let chunk = "";
    for (let n = 0; n < pans; n++) {
      const distributor = distributors[n % DISTRIBUTORS]!;
      const hash = services.cipher.lookupHash(panOf(n));
      for (let k = 0; k < PER_PAN; k++) {
        const registrar = k % 2 ? "KFINTECH" : "CAMS";
        const units = `${(n % 9000) + k}.125`;
        chunk += `${distributor}\t${registrar}\tAMC${(n + k) % 40}\t${n}/${k}\tS${(n * 3 + k) % 500}\t${100000 + ((n + k) % 500)}\tBench Mutual Fund\tINF000B${String((n + k) % 9999).padStart(4, "0")}1\tBench Scheme ${(n + k) % 500} Growth\t${units}\t21.3456\t2026-11-16\t${(((n % 9000) + k) * 21.35).toFixed(2)}\t2026-11-16\t${k === 4 && n % 3 === 0 ? "JOINT" : "SINGLE"}\t${hash}\thff_bench\n`;
      }
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = "";
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(
    `COPY holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_code, amc_name, isin, scheme_name,
       units, nav, nav_date, market_value, balance_date, holding_nature, pan_hash, feed_file_id) FROM STDIN`,
  )));
  await client.query(`ALTER TABLE holding_positions ADD CONSTRAINT holding_positions_pkey
    PRIMARY KEY (distributor_id, registrar, folio_no, amc_code, registrar_scheme_code) DEFERRABLE INITIALLY IMMEDIATE`);
  await client.query(`CREATE INDEX holding_positions_pan_hash_idx ON holding_positions USING HASH (pan_hash)`);
  await client.query("VACUUM ANALYZE holding_positions");
  const { rows } = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM holding_positions");
  if (process.env.BENCH_EXPLAIN) {
    const plan = await client.query(`EXPLAIN ANALYZE SELECT * FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE'`, [services.cipher.lookupHash(panOf(20)), distributors[0]]);
    process.stderr.write(plan.rows.map((r) => r["QUERY PLAN"]).join("\n") + "\n");
  }
  await client.end();
  process.stderr.write(`loaded ${rows[0]!.n} positions in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);


  const ours = await listenApp(stack, stack.app.fetch);
  const raw = await startRawServer(async (body) => {
    const hash = services.cipher.lookupHash((body as { pan: string }).pan);
    const { rows } = await pool.query({ name: "raw-lookup", text: LOOKUP, values: [hash, stack.distributorId] });
    return { status: 200, body: { holdings: rows } };
  });
  // PANs of the benchmark's distributor (every DISTRIBUTORS-th), sampled, in a shuffled order.
  const bodies = Array.from({ length: Math.min(SAMPLE, Math.floor(pans / DISTRIBUTORS)) }, (_, i) =>
    JSON.stringify({ pan: panOf(((i * 7919) % Math.floor(pans / DISTRIBUTORS)) * DISTRIBUTORS) }),
  ).sort(() => Math.random() - 0.5);
  const headers = { authorization: `Bearer ${stack.token}`, "content-type": "application/json" };
  for (const port of [ours.port, raw.port]) {
    const check = await fetch(`http://127.0.0.1:${port}${PATH}`, { method: "POST", headers, body: bodies[1] });
    const answer = (await check.json()) as { holdings: unknown[] };
    if (check.status !== 200 || answer.holdings.length < 4) throw new Error(`lookup check failed: ${check.status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
  const spec = (port: number): LoadSpec => ({ url: `http://127.0.0.1:${port}${PATH}`, method: "POST", headers, bodies, connections: CONNECTIONS, seconds: SECONDS, expectStatus: 200 });
  // The sides take turns in short slices (a slower spell of a shared machine lands on both); the table gives medians.
  const [rawRuns, ourRuns] = await interleavedWithBaseline(spec(raw.port), spec(ours.port));
  const rawResult = combineRuns(rawRuns);
  const ourResult = combineRuns(ourRuns);
  printTable(`POST ${PATH} over ${POSITIONS.toLocaleString("en")} positions, ${CONNECTIONS} connections, pool ${services.config.dbPoolSize}; the sides in ${PAIRS} pairs of ${SLICE_SECONDS} s slices taking turns (after ${WARMUP_SECONDS} s warm-up each), the median slice of each side`, [
    compare("POST /api/holdings/v1/lookup", "req/s", ourResult, "node:http + pg, same indexed select", rawResult, { minRatio: 0.6, maxP99Factor: 1.5 }),
  ]);
  // CPU per request of each side, this process's (the servers) and PostgreSQL's, which the other work on a shared
  // machine disturbs less than the rates.
  console.log(`server CPU per request: ours ${cpuPerRequest(ourResult).toFixed(1)} us, raw ${cpuPerRequest(rawResult).toFixed(1)} us (raw / ours ${(cpuPerRequest(rawResult) / cpuPerRequest(ourResult)).toFixed(2)}); PostgreSQL's: ours ${pgCpuPerRequest(ourResult).toFixed(1)} us, raw ${pgCpuPerRequest(rawResult).toFixed(1)} us`);
  console.log(`ratios by pair of slices: ${pairRatios(rawRuns, ourRuns)}\n`);
  failOnUnexpected({ raw: rawResult, ours: ourResult });
  ours.server.close();
  raw.server.close();
} finally {
  await pool.end();
  await stack.close();
}
