/**
 * The one table every benchmark prints: each measured path of our stack beside its raw baseline from the
 * same run, the ratio of their rates, the target (from issue 15) and whether it is met. Printed as a
 * Markdown table so docs/benchmarks.md can carry it as it is.
 */
export interface Figures {
  /** A rate (requests/s, orders/s, rows/s, ...). */
  rate?: number;
  /** Latencies in ms. */
  p50?: number;
  p99?: number;
  /** A figure that is not a rate (peak RSS), printed as given. */
  text?: string;
}

export interface Row {
  path: string;
  unit: string;
  ours: Figures;
  baselineName: string;
  baseline: Figures;
  /** What the row must reach, in words; "-" when the issue sets none. */
  target: string;
  /** Null when there is no target. */
  met: boolean | null;
}

export interface Targets {
  /** Our rate / the baseline's at least this. */
  minRatio?: number;
  /** Our p99 at most this many times the baseline's. */
  maxP99Factor?: number;
  /** Our rate at least this (absolute). */
  minRate?: number;
  /** Our p50 under this many ms. */
  maxP50?: number;
}

export const ratioOf = (ours: Figures, baseline: Figures): number | undefined =>
  ours.rate !== undefined && baseline.rate !== undefined && baseline.rate > 0 && Number.isFinite(ours.rate) ? ours.rate / baseline.rate : undefined;

/** A row whose target and verdict follow from `targets`. */
export function compare(path: string, unit: string, ours: Figures, baselineName: string, baseline: Figures, targets: Targets = {}): Row {
  const parts: string[] = [];
  const checks: boolean[] = [];
  const ratio = ratioOf(ours, baseline);
  if (targets.minRatio !== undefined) {
    parts.push(`ratio >= ${targets.minRatio}`);
    checks.push(ratio !== undefined && ratio >= targets.minRatio);
  }
  if (targets.maxP99Factor !== undefined) {
    parts.push(`p99 <= ${targets.maxP99Factor}x baseline`);
    checks.push(ours.p99 !== undefined && baseline.p99 !== undefined && ours.p99 <= targets.maxP99Factor * Math.max(baseline.p99, 1));
  }
  if (targets.minRate !== undefined) {
    parts.push(`>= ${targets.minRate.toLocaleString("en")} ${unit}`);
    checks.push(ours.rate !== undefined && ours.rate >= targets.minRate);
  }
  if (targets.maxP50 !== undefined) {
    parts.push(`p50 < ${targets.maxP50} ms`);
    checks.push(ours.p50 !== undefined && ours.p50 < targets.maxP50);
  }
  return { path, unit, ours, baselineName, baseline, target: parts.length > 0 ? parts.join(", ") : "-", met: checks.length > 0 ? checks.every(Boolean) : null };
}

const rate = (f: Figures) => (f.text ?? (f.rate === undefined || !Number.isFinite(f.rate) ? "-" : Math.round(f.rate).toLocaleString("en")));
const ms = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? "-" : `${value}`);

/** Prints the table, with a title line (what ran, connections, duration). */
export function printTable(title: string, rows: Row[]): void {
  const header = ["path", "unit", "ours", "p50 ms", "p99 ms", "baseline", "baseline rate", "p50 ms", "p99 ms", "ratio", "target", "met"];
  const lines = rows.map((r) => {
    const ratio = ratioOf(r.ours, r.baseline);
    return [r.path, r.unit, rate(r.ours), ms(r.ours.p50), ms(r.ours.p99), r.baselineName, rate(r.baseline), ms(r.baseline.p50), ms(r.baseline.p99), ratio === undefined ? "-" : ratio.toFixed(2), r.target, r.met === null ? "-" : r.met ? "yes" : "NO"];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}\n`);
  console.log(format(header));
  console.log(format(widths.map((w) => "-".repeat(w))));
  for (const line of lines) console.log(format(line));
  console.log();
}
