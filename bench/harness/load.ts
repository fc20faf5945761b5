/**
 * Drives one server with autocannon in a process of its own (load-process.ts), the same way for our
 * stack and for its raw baseline: same connections, same duration (or request count), same bodies.
 */
import { fork } from "node:child_process";
import path from "node:path";
import { PAIRS, SLICE_SECONDS, WARMUP_SECONDS } from "./options.js";
import { postgresCpuMicros } from "./postgres-cpu.js";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** Request bodies sent in turn; none for a GET. */
  bodies?: string[];
  connections: number;
  /** Duration in seconds, unless `amount` (a number of requests) is given. */
  seconds: number;
  amount?: number;
  /** Every other status is counted as unexpected and the first one is kept. */
  expectStatus: number;
  /**
   * A placeholder in the bodies replaced by a PAN of its own in every request (an individual's PAN, never
   * sent before by this benchmark process: each run gets a series of its own), for paths that refuse a PAN
   * they already hold.
   */
  freshPan?: string;
  /** Set by runLoad: which series of PANs this run sends. */
  panSeries?: number;
}

export interface LoadResult {
  /** Requests per second: answers over the run's duration. */
  rate: number;
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
  /** Answers with another status than expected, plus connection errors. */
  unexpected: number;
  errors: number;
  firstFailure?: string;
  /**
   * CPU time of this process (where the servers run) during the run, in microseconds: divided by
   * `requests`, the server's cost per request, which a busy shared machine disturbs far less than the rate.
   */
  cpuMicros?: number;
  /** CPU time of the embedded PostgreSQL server during the run (postgres-cpu.ts), in microseconds, when it is ours to watch. */
  pgCpuMicros?: number;
}

/** The server's CPU per answered request of a run, in microseconds (NaN when the run did not measure it). */
export function cpuPerRequest(result: LoadResult): number {
  return (result.cpuMicros ?? Number.NaN) / result.requests;
}

/** PostgreSQL's CPU per answered request of a run, in microseconds (NaN when the run did not measure it). */
export function pgCpuPerRequest(result: LoadResult): number {
  return (result.pgCpuMicros ?? Number.NaN) / result.requests;
}

const LOAD_PROCESS = path.join(import.meta.dirname, "load-process.ts");

/** The PAN series the next run with `freshPan` sends (see panOf in load-process.ts). */
let nextPanSeries = 0;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.freshPan !== undefined) spec = { ...spec, panSeries: nextPanSeries++ };
  const child = forkLoadProcess();
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const answer = new Promise<LoadResult | { error: string }>((resolve) => child.once("message", (m) => resolve(m as LoadResult)));
  const clocks = startClocks();
  const mainThread = process.threadCpuUsage();
  child.send(spec);
  const result = await Promise.race([answer, exited.then((code) => ({ error: `load process exited (${code}) without a result` }))]);
  const { used, cost } = spentSince(clocks);
  const usedByMain = process.threadCpuUsage(mainThread);
  await exited;
  if ("error" in result) throw new Error(result.error);
  // BENCH_CPU_SPLIT=1: user and system time apart (the system part is mostly socket writes, which both sides pay),
  // and the main thread's share apart from the other threads' (GC helpers, libuv).
  if (process.env.BENCH_CPU_SPLIT) {
    const perRequest = (micros: number) => `${(micros / result.requests).toFixed(1)} us`;
    console.error(`cpu split per request: user ${perRequest(used.user)}, system ${perRequest(used.system)}; main thread ${perRequest(usedByMain.user + usedByMain.system)}, other threads ${perRequest(used.user + used.system - usedByMain.user - usedByMain.system)}; ${result.rate.toFixed(0)} req/s`);
  }
  return { ...result, ...cost };
}

function forkLoadProcess() {
  return fork(LOAD_PROCESS, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** The clocks of what a run costs: this process's CPU (where the servers run) and the embedded PostgreSQL's. */
interface Clocks {
  cpu: NodeJS.CpuUsage;
  pg: number | undefined;
}

/** PostgreSQL's clock first: reading it walks /proc, which costs this process a millisecond or two the run must not count. */
function startClocks(): Clocks {
  const pg = postgresCpuMicros();
  return { pg, cpu: process.cpuUsage() };
}

/** The CPU spent since `start`: this process's (user and system apart too) and PostgreSQL's, when it is watched. */
function spentSince(start: Clocks): { used: NodeJS.CpuUsage; cost: Pick<LoadResult, "cpuMicros" | "pgCpuMicros"> } {
  const used = process.cpuUsage(start.cpu);
  const pg = postgresCpuMicros();
  return { used, cost: { cpuMicros: used.user + used.system, ...(start.pg !== undefined && pg !== undefined ? { pgCpuMicros: pg - start.pg } : {}) } };
}

/** Runs of load driven one after the other by one load process (runInterleaved). */
export interface SliceSequence {
  slices: LoadSpec[];
}

/** What the load process says around each slice of a SliceSequence. */
export type SliceMessage = { slice: number; phase: "start" } | { slice: number; phase: "done"; result: LoadResult };

export interface InterleaveOptions {
  /** Pairs of slices, one slice of each side per pair. */
  pairs: number;
  sliceSeconds: number;
  /** A slice of each side first, not measured (JIT, pools, caches). */
  warmupSeconds: number;
}

/** Which side runs each slice of `pairs` pairs: 0 1, 1 0, 0 1, ... (each side first in every other pair). */
export function turns(pairs: number): Array<0 | 1> {
  return Array.from({ length: pairs * 2 }, (_, slice) => ((slice + Math.floor(slice / 2)) % 2) as 0 | 1);
}

/**
 * Two sides taking turns in short slices, A B B A A B B A ... (each side as often first as second, so what one
 * side leaves behind lands on both), after a warm-up of each, all driven by one load process whose JIT stays warm:
 * a slower spell of the shared host that lasts longer than a slice or two slows both sides alike, where
 * side-by-side runs of many seconds each met different spells. The server's and PostgreSQL's CPU are read at
 * each slice's start and end. Answers each side's slices, in their order.
 */
export async function runInterleaved(a: LoadSpec, b: LoadSpec, options: InterleaveOptions): Promise<[LoadResult[], LoadResult[]]> {
  const sideOf = turns(options.pairs);
  const warmups: Array<0 | 1> = options.warmupSeconds > 0 ? [0, 1] : [];
  const sides = [a, b];
  const slices = [...warmups, ...sideOf].map((side, index) => {
    const spec = sides[side]!;
    const seconds = index < warmups.length ? options.warmupSeconds : options.sliceSeconds;
    return { ...spec, seconds, amount: undefined, ...(spec.freshPan !== undefined ? { panSeries: nextPanSeries++ } : {}) };
  });
  const child = forkLoadProcess();
  const results: [LoadResult[], LoadResult[]] = [[], []];
  let clocks: Clocks | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    child.on("message", (message: SliceMessage | { error: string }) => {
      if ("error" in message) return reject(new Error(message.error));
      if (message.slice < warmups.length) return;
      if (message.phase === "start") {
        clocks = startClocks();
        return;
      }
      results[sideOf[message.slice - warmups.length]!].push({ ...message.result, ...spentSince(clocks!).cost });
    });
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`load process exited (${code})`))));
  });
  child.send({ slices } satisfies SliceSequence);
  await finished;
  return results;
}

/**
 * runInterleaved with the settings' pairs and slices (options.ts), baseline first; under BENCH_ONLY=ours (a CPU
 * profile of our side) our side alone, one warmed-up run of BENCH_SECONDS, and no baseline.
 */
export async function interleavedWithBaseline(baseline: LoadSpec, ours: LoadSpec): Promise<[LoadResult[], LoadResult[]]> {
  if (ONLY_OURS) return [[NOT_RUN], [await warmAndRun(ours, WARMUP_SECONDS)]];
  return runInterleaved(baseline, ours, { pairs: PAIRS, sliceSeconds: SLICE_SECONDS, warmupSeconds: WARMUP_SECONDS });
}

/**
 * Each pair's ratio of b's rate to a's from runInterleaved's slices (pair by pair, in order), their median and
 * their range, for the line under a table.
 */
export function pairRatios(a: readonly LoadResult[], b: readonly LoadResult[]): string {
  if (a.length === 0 || b.length === 0 || Number.isNaN(a[0]!.rate) || Number.isNaN(b[0]!.rate)) return "-";
  const ratios = b.map((r, i) => r.rate / a[i]!.rate);
  const sorted = [...ratios].sort((x, y) => x - y);
  return `median ${median(ratios).toFixed(2)} of ${ratios.length} pairs (${sorted[0]!.toFixed(2)}-${sorted.at(-1)!.toFixed(2)})`;
}

/** A warm-up (JIT, pools, caches) then the measured run. With zero warm-up seconds, only the run. */
export async function warmAndRun(spec: LoadSpec, warmupSeconds: number): Promise<LoadResult> {
  if (warmupSeconds > 0) await runLoad({ ...spec, seconds: warmupSeconds, amount: undefined });
  return runLoad(spec);
}

/**
 * With BENCH_ONLY=ours (for a CPU profile of our stack alone: `node --cpu-prof ...`), baselines are not run
 * and their figures print as "-".
 */
export const ONLY_OURS = process.env.BENCH_ONLY === "ours";
/** The figures of a side that did not run (they print as "-"). */
export const NOT_RUN: LoadResult = { rate: Number.NaN, p50: Number.NaN, p99: Number.NaN, requests: 0, seconds: 0, unexpected: 0, errors: 0 };

/** warmAndRun for a baseline (skipped under BENCH_ONLY=ours). */
export async function runBaseline(spec: LoadSpec, warmupSeconds: number): Promise<LoadResult> {
  return ONLY_OURS ? NOT_RUN : warmAndRun(spec, warmupSeconds);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Several runs of one side as one result (e.g. its slices from runInterleaved): the median rate, p50 and p99 of the
 * runs; requests, CPU time and failures summed (so the CPU per request covers every run).
 */
export function combineRuns(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 1) return runs[0]!;
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  return {
    rate: median(runs.map((r) => r.rate)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests: sum((r) => r.requests),
    seconds: sum((r) => r.seconds),
    unexpected: sum((r) => r.unexpected),
    errors: sum((r) => r.errors),
    firstFailure: runs.find((r) => r.firstFailure !== undefined)?.firstFailure,
    cpuMicros: runs.every((r) => r.cpuMicros !== undefined) ? sum((r) => r.cpuMicros!) : undefined,
    pgCpuMicros: runs.every((r) => r.pgCpuMicros !== undefined) ? sum((r) => r.pgCpuMicros!) : undefined,
  };
}

/** A run that met answers it did not expect measured something else: say so, and fail the benchmark. */
export function failOnUnexpected(results: Record<string, LoadResult>): void {
  for (const [name, result] of Object.entries(results)) {
    if (result.unexpected === 0) continue;
    console.log(`${name}: ${result.unexpected} unexpected answers; first: ${result.firstFailure}`);
    process.exitCode = 1;
  }
}
