/**
 * How long and how big a benchmark runs. Every benchmark reads BENCH_SECONDS (per measured side) and
 * BENCH_WARMUP_SECONDS; `--smoke` (or BENCH_SMOKE=1) makes every run tiny, so a test can check that the
 * benchmark starts and prints its table without timing anything.
 */
export const SMOKE = process.argv.includes("--smoke") || process.env.BENCH_SMOKE === "1";
// The benchmark's child processes (writers, receivers) inherit the mode.
if (SMOKE) process.env.BENCH_SMOKE = "1";

/** A number from the environment, else the smoke value in smoke mode, else the default. */
export function setting(name: string, normal: number, smoke: number): number {
  const value = process.env[name];
  if (value !== undefined && value !== "") {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative number, not ${value}`);
    return parsed;
  }
  return SMOKE ? smoke : normal;
}

export const SECONDS = setting("BENCH_SECONDS", 10, 1);
export const WARMUP_SECONDS = setting("BENCH_WARMUP_SECONDS", 2, 0);
/** The HTTP benchmarks whose sides take turns (bench:hot-reads, bench:holdings-lookup; load.ts, runInterleaved): pairs of slices, and a slice's length. */
export const PAIRS = setting("BENCH_PAIRS", 10, 1);
export const SLICE_SECONDS = setting("BENCH_SLICE_SECONDS", 2, 1);
