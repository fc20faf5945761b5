/** One sample of Prometheus' text format: `name{label="value",...} 12.5`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition (comments skipped); label values unescaped. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample `name` whose labels include `labels` (0 when there is none: a counter not yet counted). */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = parseExposition(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** The bearer the metrics tests configure (MF_METRICS_TOKEN). */
export const METRICS_TOKEN = "metrics-token-0123456789abcdef";

/** GET /metrics through the app with the metrics bearer (200 asserted); the exposition text. */
export async function scrape(app: { http: (method: string, path: string, options: { token: string }) => Promise<{ status: number; text: string }> }): Promise<string> {
  const res = await app.http("GET", "/metrics", { token: METRICS_TOKEN });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${res.text}`);
  return res.text;
}

/** How much the sample grew from one scrape to the next. */
export const grew = (before: string, after: string, name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
