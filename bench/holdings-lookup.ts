/**
 * Holdings lookup benchmark: POST /api/holdings/v1/lookup through the whole stack (Hono, REST adapter, auth,
 * validation, keyed hash, query, summary) over 5,000,000 stored positions (1,000,000 PANs with 5 positions each,
 * spread over 20 distributors), 50 connections, a random known PAN per request. Prints req/s and latency
 * p50/p99 (target p99 < 20 ms). The server runs in a child process (this file again, argument `serve`) so the
 * load generator does not share its event loop.
 *   npm run bench:holdings-lookup     (BENCH_POSITIONS=5000000, BENCH_SECONDS=10 by default)
 *
 * The positions are loaded with COPY into the table with its indexes dropped, then the indexes are rebuilt (setup,
 * not measured). Every row carries the same PAN ciphertext (the lookup never decrypts; only the row width matters).
 */
import { fork } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { UNLIMITED_BUDGET } from "./budget.js";

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 5_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PER_PAN = 5;
const DISTRIBUTORS = 20;
const PG_PORT = 54342;
const SAMPLE = 20_000;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A distinct, well-formed, made-up individual PAN for each n. */
function panOf(n: number): string {
  const l = (k: number) => LETTERS[Math.floor(k) % 26]!;
  return `${l(n)}${l(n / 26)}${l(n / 676)}P${l(n / 17576)}${1000 + (Math.floor(n / 456976) % 9000)}${l(n * 7)}`;
}

interface Ready {
  port: number;
  token: string;
  pans: string[];
}

async function serve(): Promise<void> {
  const { loadConfig } = await import("../src/env.js");
  const { openRuntime } = await import("../src/runtime.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const { createApp } = await import("../src/app.js");
  const { createDistributor } = await import("../src/auth/distributors.service.js");
  const { serve: listen } = await import("@hono/node-server");
  const pg = (await import("pg")).default;
  const { from: copyFrom } = await import("pg-copy-streams");

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-bench-lookup-"));
  await chmod(dataDir, 0o755);
  const config = loadConfig({ ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: String(PG_PORT), LOG_LEVEL: "info" });
  const pino = (await import("pino")).default;
  const runtime = await openRuntime(config, createLogger("info", pino.destination({ dest: "/dev/null", sync: false })));
  const stop = async () => {
    await runtime.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", () => void stop());
  process.on("disconnect", () => void stop());

  const { services } = runtime;
  const distributors: string[] = [];
  let token = "";
  for (let d = 0; d < DISTRIBUTORS; d++) {
    const created = await createDistributor(services.prisma, { name: `Bench ${d}`, arn: `ARN-8${String(d).padStart(5, "0")}` });
    distributors.push(created.distributor_id);
    if (d === 0) token = (await services.auth.issueToken(created.client_id, created.client_secret)).access_token;
  }

  const started = performance.now();
  const client = new pg.Client({ connectionString: services.config.databaseUrl });
  await client.connect();
  await client.query("ALTER TABLE holding_positions DROP CONSTRAINT holding_positions_pkey");
  await client.query("DROP INDEX holding_positions_pan_hash_idx");
  const ciphertext = services.cipher.encrypt("ABCPE1234F");
  const pans = POSITIONS / PER_PAN;
  function* lines(): Generator<string> {
    let chunk = "";
    for (let n = 0; n < pans; n++) {
      const distributor = distributors[n % DISTRIBUTORS]!;
      const hash = services.cipher.lookupHash(panOf(n));
      for (let k = 0; k < PER_PAN; k++) {
        const registrar = k % 2 ? "KFINTECH" : "CAMS";
        const units = `${(n % 9000) + k}.125`;
        chunk += `${distributor}\t${registrar}\tAMC${(n + k) % 40}\t${n}/${k}\tS${(n * 3 + k) % 500}\t${100000 + ((n + k) % 500)}\tBench Mutual Fund\tINF000B${String((n + k) % 9999).padStart(4, "0")}1\tBench Scheme ${(n + k) % 500} Growth\t${units}\t21.3456\t2026-11-16\t${(((n % 9000) + k) * 21.35).toFixed(2)}\t2026-11-16\t${k === 4 && n % 3 === 0 ? "JOINT" : "SINGLE"}\t${hash}\t${ciphertext}\thff_bench\n`;
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
       units, nav, nav_date, market_value, balance_date, holding_nature, pan_hash, pan_encrypted, feed_file_id) FROM STDIN`,
  )));
  await client.query(`ALTER TABLE holding_positions ADD CONSTRAINT holding_positions_pkey
    PRIMARY KEY (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code) DEFERRABLE INITIALLY IMMEDIATE`);
  await client.query(`CREATE INDEX holding_positions_pan_hash_idx ON holding_positions USING HASH (pan_hash)`);
  await client.query("VACUUM ANALYZE holding_positions");
  const { rows } = await client.query<{ n: string }>("SELECT count(*)::text AS n FROM holding_positions");
  if (process.env.BENCH_EXPLAIN) {
    const plan = await client.query(`EXPLAIN ANALYZE SELECT * FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE'`, [services.cipher.lookupHash(panOf(20)), distributors[0]]);
    process.stderr.write(plan.rows.map((r) => r["QUERY PLAN"]).join("\n") + "\n");
  }
  await client.end();
  process.stderr.write(`loaded ${rows[0]!.n} positions in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

  const app = createApp(services, { readiness: runtime.readiness });
  const port = await new Promise<number>((resolve) => listen({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)));
  // PANs of the benchmark's distributor (every DISTRIBUTORS-th), sampled.
  const sample = Array.from({ length: SAMPLE }, (_, i) => panOf(((i * 7919) % Math.floor(pans / DISTRIBUTORS)) * DISTRIBUTORS));
  process.send!({ port, token, pans: sample } satisfies Ready);
}

async function measure(): Promise<void> {
  const entry = fileURLToPath(import.meta.url);
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(entry, ["serve"], { execArgv: ["--import", "tsx", ...profile], stdio: "inherit" });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const ready = await Promise.race([
      new Promise<Ready>((resolve) => child.once("message", (m) => resolve(m as Ready))),
      exited.then((code) => {
        throw new Error(`server process exited (${code}) before it was ready`);
      }),
    ]);
    const url = `http://127.0.0.1:${ready.port}`;
    const headers = { authorization: `Bearer ${ready.token}`, "content-type": "application/json" };
    const check = await fetch(`${url}/api/holdings/v1/lookup`, { method: "POST", headers, body: JSON.stringify({ pan: ready.pans[1] }) });
    const body = (await check.json()) as { holdings: unknown[]; summary: { positions: number } };
    if (check.status !== 200 || body.holdings.length < 4) throw new Error(`lookup check failed: ${check.status} ${JSON.stringify(body).slice(0, 300)}`);

    const sequential = performance.now();
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${url}/api/holdings/v1/lookup`, { method: "POST", headers, body: JSON.stringify({ pan: ready.pans[i] }) });
      await r.text();
    }
    console.log(`sequential: ${((performance.now() - sequential) / 200).toFixed(2)} ms per lookup (one connection)`);
    {
      // Context for the figures: the same server, one connection, other paths (the machine may be shared).
      for (const [method, p, b] of [["GET", "/healthz", undefined], ["GET", "/api/masters/v1/investor-options", undefined], ["GET", "/api/investors/v1?limit=1", undefined], ["POST", "/api/holdings/v1/lookup", JSON.stringify({ pan: "bad" })]] as const) {
        const t = performance.now();
        for (let i = 0; i < 100; i++) await (await fetch(`${url}${p}`, { method, headers, body: b })).text();
        console.log(`${method} ${p}: ${((performance.now() - t) / 100).toFixed(2)} ms`);
      }
    }

    let failure: string | undefined;
    const run = (duration: number) =>
      autocannon({
        url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: "POST",
            path: "/api/holdings/v1/lookup",
            headers,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ pan: ready.pans[Math.floor(Math.random() * ready.pans.length)] }) }),
            onResponse: (status, responseBody) => {
              if (status !== 200 && failure === undefined) failure = `${status}: ${responseBody}`;
            },
          },
        ],
      });
    await run(2);
    const result = await run(SECONDS);
    console.log(`\nPOST /api/holdings/v1/lookup over ${POSITIONS.toLocaleString("en")} positions, ${CONNECTIONS} connections, ${SECONDS} s (after 2 s warm-up)`);
    console.log(
      `${result.requests.average.toFixed(0)} req/s   p50 ${result.latency.p50} ms   p90 ${result.latency.p90} ms   p99 ${result.latency.p99} ms   ` +
        `max ${result.latency.max} ms   non-2xx ${result.non2xx}   errors ${result.errors}`,
    );
    console.log(`p99 target < 20 ms: ${result.latency.p99 < 20 ? "met" : "NOT met"}\n`);
    if (failure) console.log(`first failing response: ${failure}`);
  } finally {
    child.send("stop");
    await exited;
  }
}

if (process.argv[2] === "serve") {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  measure().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
