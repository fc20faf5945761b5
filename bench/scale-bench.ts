/**
 * The benchmark at scale (issue 28): each hot path on an almost empty database (generated here at a hundredth
 * of the default scale, with the same open work, so lists and picks answer as many rows) and on the one
 * bench:seed-scale generated, side by side, with the rows each side answered: p50 and p99 of `BENCH_SAMPLES` sequential runs (default 1,000,
 * the sides taking turns sample by sample, after a warm-up that reads every sampled order, investor and PAN once) and their ratios, and EXPLAIN (ANALYZE, BUFFERS) of every statement the path sends
 * on the generated database, flagged when it scans a big table or reads far more rows than it answers.
 *   npm run bench:seed-scale -- --orders 200000 ...     (first: the generated database under .data/scale)
 *   npm run bench:scale [-- --data-dir DIR | --database-url URL] [--scale LABEL] [--smoke]
 * Figures and plans are written to bench/results/scale-<label>-<date>/ (gitignored).
 */
import path from "node:path";
import pg from "pg";
import { parseArgs } from "node:util";
import { SMOKE, setting } from "./harness/options.js";
import { openStack, type Stack } from "./harness/stack.js";
import { capture, explainAll } from "./scale/explain.js";
import { hotPaths, type HotPath } from "./scale/hot-paths.js";
import { latencyOf, saveResults, tableOf, type Latency, type PathResult } from "./scale/report.js";
import { DEFAULT_DATA_DIR, DEFAULT_SCALE } from "./scale/scale-options.js";
import { seed } from "./scale/seed.js";
import type { Scale } from "./scale/shapes.js";
import { SUBJECT_SAMPLE, subjectOf } from "./scale/subject.js";

const { values } = parseArgs({ args: process.argv.slice(2), options: { "data-dir": { type: "string" }, "database-url": { type: "string" }, scale: { type: "string", default: "small" }, smoke: { type: "boolean" } } });
const SAMPLES = setting("BENCH_SAMPLES", 1000, 10);
const bigUrl = values["database-url"];
/**
 * The almost empty side: the generator at a hundredth of its default scale (100k orders), with as much open work
 * (OPEN_WORK) as the big side, so its lists and picks answer as many rows (the smallest distributor's lists included).
 */
const SMALL_SCALE: Scale = Object.fromEntries(Object.entries(DEFAULT_SCALE).map(([k, v]) => [k, v / 100])) as unknown as Scale;
const SMOKE_SCALE: Scale = { investors: 100, orders: 300, events: 300, deliveries: 200, positions: 100 };
// The almost empty side gets a database of its own, whatever DATABASE_URL says.
delete process.env.DATABASE_URL;

/** Every sample (order, investor, PAN) read once before the timing: the figures are of cached data on both sides (the big side's cold reads measure its disk). */
const WARMUP = SMOKE ? 2 : Math.max(20, SUBJECT_SAMPLE);
/**
 * Both sides share one Node process, whose garbage collection pauses land on whichever sample is running: about
 * as many per 1,000 samples as the p99 leaves out, so the p99s of the millisecond paths flipped between runs by
 * the pauses, not the database. A sample during which Node collected garbage (PerformanceObserver's gc entries)
 * is left out of the figures and counted. (Forcing a collection every 100 samples made the tails worse.)
 */
const pauses: Array<{ start: number; end: number }> = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
}).observe({ entryTypes: ["gc"] });

interface Sample {
  start: number;
  end: number;
}

/** One run of `path`, timed. */
async function timed(path: HotPath, i: number): Promise<Sample> {
  const start = performance.now();
  await path.run(i);
  return { start, end: performance.now() };
}

/** The samples no collection overlapped (the gc entries arrive later: a turn of the event loop first). */
async function withoutPauses(samples: Sample[]): Promise<{ kept: number[]; paused: number }> {
  await new Promise((resolve) => setImmediate(resolve));
  const kept = samples.filter((s) => !pauses.some((p) => p.start < s.end && p.end > s.start)).map((s) => s.end - s.start);
  return { kept, paused: samples.length - kept.length };
}

interface Measured {
  small: Latency;
  big: Latency;
  rows?: { small: number; big: number };
  paused: { small: number; big: number };
}

async function measure(small: HotPath, big: HotPath): Promise<Measured> {
  const [smallRows, bigRows] = [await small.rows?.(), await big.rows?.()];
  for (let i = 0; i < WARMUP; i++) await small.run(i);
  for (let i = 0; i < WARMUP; i++) await big.run(i);
  const samples = { small: [] as Sample[], big: [] as Sample[] };
  pauses.length = 0;
  // The sides take turns sample by sample, so a burst of the machine's load (this VM's neighbours, a checkpoint)
  // falls on both: in blocks of 100 samples a burst of a second or two landed on one side and moved its p99.
  for (let i = 0; i < SAMPLES; i++) {
    samples.small.push(await timed(small, i));
    samples.big.push(await timed(big, i));
  }
  const [onSmall, onBig] = [await withoutPauses(samples.small), await withoutPauses(samples.big)];
  return {
    small: latencyOf(onSmall.kept), big: latencyOf(onBig.kept), paused: { small: onSmall.paused, big: onBig.paused },
    ...(smallRows !== undefined && bigRows !== undefined ? { rows: { small: smallRows, big: bigRows } } : {}),
  };
}

const small = await openStack({ name: "scale-small", logLevel: "warn" });
let big: Stack | undefined;
try {
  const client = new pg.Client({ connectionString: small.databaseUrl });
  await client.connect();
  const smallScale = SMOKE ? SMOKE_SCALE : SMALL_SCALE;
  const seeded = performance.now();
  await seed(client, small.services, smallScale, () => {}).finally(() => client.end());
  console.log(`almost empty side generated at ${JSON.stringify(smallScale)} in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  big = await openStack({ name: "scale-big", logLevel: "warn", env: bigUrl ? { DATABASE_URL: bigUrl, MF_DATA_DIR: path.resolve(values["data-dir"] ?? DEFAULT_DATA_DIR) } : { MF_DATA_DIR: path.resolve(values["data-dir"] ?? DEFAULT_DATA_DIR) } });
  const bigClient = new pg.Client({ connectionString: big.databaseUrl });
  await bigClient.connect();
  const { rows } = await bigClient.query<{ orders: string; events: string; deliveries: string; size: string }>(
    `SELECT (SELECT reltuples::bigint FROM pg_class WHERE relname = 'orders')::text AS orders, (SELECT reltuples::bigint FROM pg_class WHERE relname = 'events')::text AS events,
            (SELECT reltuples::bigint FROM pg_class WHERE relname = 'webhook_deliveries')::text AS deliveries, pg_size_pretty(pg_database_size(current_database())) AS size`,
  ).finally(() => bigClient.end());
  const smallPaths = hotPaths(small, await subjectOf(small));
  const bigPaths = hotPaths(big, await subjectOf(big));
  const results: PathResult[] = [];
  for (const [i, bigPath] of bigPaths.entries()) {
    const measured = await measure(smallPaths[i]!, bigPath);
    const statements = await capture(async () => void (await bigPath.run(SAMPLES + WARMUP)));
    results.push({ name: bigPath.name, ...measured, plans: await explainAll(big.databaseUrl, statements) });
  }
  const info = rows[0]!;
  const title = `Hot paths, almost empty database (generated, ${smallScale.orders.toLocaleString("en")} orders) vs generated (~${Number(info.orders).toLocaleString("en")} orders, ~${Number(info.events).toLocaleString("en")} events, ` +
    `~${Number(info.deliveries).toLocaleString("en")} deliveries, ${info.size}): ${SAMPLES} sequential runs each, the sides taking turns sample by sample, after ${WARMUP} warm-up, in process, samples paused by garbage collection left out; ` +
    `load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`;
  console.log(`\n${title}\n\n${tableOf(results)}\n`);
  const dir = path.resolve("bench/results", `scale-${values.scale}-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-")}`);
  await saveResults(dir, title, results);
  console.log(`plans of every statement: ${path.relative(process.cwd(), dir)}/explain.md`);
  const flagged = results.flatMap((r) => r.plans.filter((p) => p.flags.length > 0).map((p) => `${r.name}: ${p.flags.join("; ")}\n    ${p.statement.slice(0, 240)}`));
  if (flagged.length > 0) console.log(`\nflagged statements:\n  ${flagged.join("\n  ")}`);
} finally {
  await big?.close();
  await small.close();
}
