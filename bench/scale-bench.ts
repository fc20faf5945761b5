/**
 * The benchmark at scale (issue 28): each hot path on an almost empty database and on the one
 * bench:seed-scale generated, side by side: p50 and p99 of `BENCH_SAMPLES` sequential runs (default 300,
 * after 20 warm-up runs) and their ratios, and EXPLAIN (ANALYZE, BUFFERS) of every statement the path sends
 * on the generated database, flagged when it scans a big table or reads far more rows than it answers.
 *   npm run bench:seed-scale -- --orders 200000 ...     (first: the generated database under .data/scale)
 *   npm run bench:scale [-- --data-dir DIR | --database-url URL] [--scale LABEL] [--smoke]
 * Figures and plans are written to bench/results/scale-<label>-<date>/ (gitignored).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { SMOKE, setting } from "./harness/options.js";
import { openStack, type Stack } from "./harness/stack.js";
import { capture, explainAll } from "./scale/explain.js";
import { hotPaths, type HotPath } from "./scale/hot-paths.js";
import { latencyOf, saveResults, tableOf, type Latency, type PathResult } from "./scale/report.js";
import { DEFAULT_DATA_DIR } from "./scale/scale-options.js";
import { subjectOf } from "./scale/subject.js";

const { values } = parseArgs({ args: process.argv.slice(2), options: { "data-dir": { type: "string" }, "database-url": { type: "string" }, scale: { type: "string", default: "small" }, smoke: { type: "boolean" } } });
const SAMPLES = setting("BENCH_SAMPLES", 300, 10);
const WARMUP = SMOKE ? 2 : 20;
const bigUrl = values["database-url"];
// The almost empty side gets a database of its own, whatever DATABASE_URL says.
delete process.env.DATABASE_URL;

async function measure(path: HotPath): Promise<Latency> {
  for (let i = 0; i < WARMUP; i++) await path.run(i);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await path.run(i);
    samples.push(performance.now() - started);
  }
  return latencyOf(samples);
}

async function side(stack: Stack, generated: boolean): Promise<{ paths: HotPath[]; figures: Latency[] }> {
  const paths = hotPaths(stack, await subjectOf(stack, generated));
  const figures: Latency[] = [];
  for (const path of paths) figures.push(await measure(path));
  return { paths, figures };
}

const small = await openStack({ name: "scale-small", logLevel: "warn" });
let smallFigures: Latency[];
try {
  smallFigures = (await side(small, false)).figures;
} finally {
  await small.close();
}
const big = await openStack({ name: "scale-big", logLevel: "warn", env: bigUrl ? { DATABASE_URL: bigUrl, MF_DATA_DIR: path.resolve(values["data-dir"] ?? DEFAULT_DATA_DIR) } : { MF_DATA_DIR: path.resolve(values["data-dir"] ?? DEFAULT_DATA_DIR) } });
try {
  const { rows } = await import("pg").then(async ({ default: pg }) => {
    const client = new pg.Client({ connectionString: big.databaseUrl });
    await client.connect();
    try {
      return await client.query<{ orders: string; events: string; deliveries: string; size: string }>(
        `SELECT (SELECT reltuples::bigint FROM pg_class WHERE relname = 'orders')::text AS orders, (SELECT reltuples::bigint FROM pg_class WHERE relname = 'events')::text AS events,
                (SELECT reltuples::bigint FROM pg_class WHERE relname = 'webhook_deliveries')::text AS deliveries, pg_size_pretty(pg_database_size(current_database())) AS size`);
    } finally {
      await client.end();
    }
  });
  const { paths, figures } = await side(big, true);
  const results: PathResult[] = [];
  for (const [i, path] of paths.entries()) {
    const statements = await capture(() => path.run(SAMPLES + WARMUP));
    results.push({ name: path.name, small: smallFigures[i]!, big: figures[i]!, plans: await explainAll(big.databaseUrl, statements) });
  }
  const info = rows[0]!;
  const title = `Hot paths, almost empty database vs generated (~${Number(info.orders).toLocaleString("en")} orders, ~${Number(info.events).toLocaleString("en")} events, ` +
    `~${Number(info.deliveries).toLocaleString("en")} deliveries, ${info.size}): ${SAMPLES} sequential runs each after ${WARMUP} warm-up, in process; load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`;
  console.log(`\n${title}\n\n${tableOf(results)}\n`);
  const dir = path.resolve("bench/results", `scale-${values.scale}-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-")}`);
  await saveResults(dir, title, results);
  console.log(`plans of every statement: ${path.relative(process.cwd(), dir)}/explain.md`);
  const flagged = results.flatMap((r) => r.plans.filter((p) => p.flags.length > 0).map((p) => `${r.name}: ${p.flags.join("; ")}\n    ${p.statement.slice(0, 240)}`));
  if (flagged.length > 0) console.log(`\nflagged statements:\n  ${flagged.join("\n  ")}`);
} finally {
  await big.close();
}
