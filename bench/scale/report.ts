/**
 * The benchmark at scale's table (each path's p50 and p99 on both sides and their ratios, against the
 * issue's target: p99 within 1.5x) and its files: the figures and every statement's plan, under
 * bench/results/scale-<date>/ (gitignored).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Explained } from "./explain.js";

export interface Latency {
  p50: number;
  p99: number;
}

export interface PathResult {
  name: string;
  small: Latency;
  big: Latency;
  /** Rows answered on each side (a list's page, a pick's batch), where the path has them. */
  rows?: { small: number; big: number };
  /** Samples left out because Node collected garbage during them. */
  paused: { small: number; big: number };
  plans: Explained[];
}

export const MAX_P99_FACTOR = 1.5;

export function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: Number(at(0.5).toFixed(2)), p99: Number(at(0.99).toFixed(2)) };
}

export function tableOf(results: PathResult[]): string {
  const header = ["path", "small p50 ms", "small p99 ms", "big p50 ms", "big p99 ms", "p50 ratio", "p99 ratio", "target", "met", "plan flags", "rows small/big", "gc-paused samples small/big"];
  const lines = results.map((r) => {
    const p99Ratio = r.big.p99 / Math.max(r.small.p99, 0.01);
    const flags = r.plans.flatMap((p) => p.flags);
    return [r.name, String(r.small.p50), String(r.small.p99), String(r.big.p50), String(r.big.p99), (r.big.p50 / Math.max(r.small.p50, 0.01)).toFixed(2), p99Ratio.toFixed(2),
      `p99 <= ${MAX_P99_FACTOR}x small`, p99Ratio <= MAX_P99_FACTOR ? "yes" : "NO", flags.length > 0 ? [...new Set(flags)].join("; ") : "-", r.rows ? `${r.rows.small}/${r.rows.big}` : "-", `${r.paused.small}/${r.paused.big}`];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}

export async function saveResults(dir: string, title: string, results: PathResult[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "figures.md"), `${title}\n\n${tableOf(results)}\n`);
  const plans = results.map((r) => [`## ${r.name}`, ...r.plans.map((p, i) => `### statement ${i + 1}${p.flags.length ? ` (FLAGGED: ${p.flags.join("; ")})` : ""}\n\n${p.statement}\n\n${p.plan}\n`)].join("\n\n"));
  await writeFile(path.join(dir, "explain.md"), `${title}\n\nEXPLAIN (ANALYZE, BUFFERS) of each statement, on the generated database.\n\n${plans.join("\n\n")}\n`);
}
