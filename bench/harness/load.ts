/**
 * Drives one server with autocannon in a process of its own (load-process.ts), the same way for our
 * stack and for its raw baseline: same connections, same duration (or request count), same bodies.
 */
import { fork } from "node:child_process";
import path from "node:path";
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
  const child = fork(LOAD_PROCESS, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const answer = new Promise<LoadResult | { error: string }>((resolve) => child.once("message", (m) => resolve(m as LoadResult)));
  const cpu = process.cpuUsage();
  const mainThread = process.threadCpuUsage();
  const pgBefore = postgresCpuMicros();
  child.send(spec);
  const result = await Promise.race([answer, exited.then((code) => ({ error: `load process exited (${code}) without a result` }))]);
  const used = process.cpuUsage(cpu);
  const usedByMain = process.threadCpuUsage(mainThread);
  const pgAfter = postgresCpuMicros();
  await exited;
  if ("error" in result) throw new Error(result.error);
  // BENCH_CPU_SPLIT=1: user and system time apart (the system part is mostly socket writes, which both sides pay),
  // and the main thread's share apart from the other threads' (GC helpers, libuv).
  if (process.env.BENCH_CPU_SPLIT) {
    const perRequest = (micros: number) => `${(micros / result.requests).toFixed(1)} us`;
    console.error(`cpu split per request: user ${perRequest(used.user)}, system ${perRequest(used.system)}; main thread ${perRequest(usedByMain.user + usedByMain.system)}, other threads ${perRequest(used.user + used.system - usedByMain.user - usedByMain.system)}; ${result.rate.toFixed(0)} req/s`);
  }
  return { ...result, cpuMicros: used.user + used.system, ...(pgBefore !== undefined && pgAfter !== undefined ? { pgCpuMicros: pgAfter - pgBefore } : {}) };
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
 * Several runs of one side as one result (the benchmarks that take BENCH_ROUNDS alternate their sides round by
 * round, so that a burst of other work on a shared machine lands on both): the median rate, p50 and p99 of the
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

/**
 * Each round's ratio of our rate to the baseline's, and their median (each ratio pairs two runs close in time, which
 * a burst of the host's other work disturbs less than the medians of the rates), for the line under a table of combined runs.
 */
export function roundRatios(ours: readonly LoadResult[], baseline: readonly LoadResult[]): string {
  const ratios = ours.map((r, i) => r.rate / baseline[i]!.rate);
  const listed = ratios.map((r) => r.toFixed(2)).join(", ");
  return ratios.length > 1 ? `${listed} (median ${median(ratios).toFixed(2)})` : listed;
}

/** A run that met answers it did not expect measured something else: say so, and fail the benchmark. */
export function failOnUnexpected(results: Record<string, LoadResult>): void {
  for (const [name, result] of Object.entries(results)) {
    if (result.unexpected === 0) continue;
    console.log(`${name}: ${result.unexpected} unexpected answers; first: ${result.firstFailure}`);
    process.exitCode = 1;
  }
}
