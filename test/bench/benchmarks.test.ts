import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { ROOT, runEntry } from "../helpers/process.js";

/**
 * Each benchmark still starts and prints its table with our figures beside the raw baseline's: run in
 * --smoke mode (1 s per side, tiny data sets) on a database of its own. Nothing here is timed.
 */
const BENCHMARKS: Array<{ script: string; rows: Array<{ path: string; baseline: boolean }> }> = [
  { script: "investor-options.ts", rows: [{ path: "procedure path (static responses off)", baseline: true }, { path: "full stack (static response)", baseline: true }] },
  { script: "investor-create.ts", rows: [{ path: "POST /api/investors/v1", baseline: true }] },
  { script: "order-place.ts", rows: [{ path: "POST /api/orders/v1/ (lump sum)", baseline: true }] },
  { script: "holdings-lookup.ts", rows: [{ path: "POST /api/holdings/v1/lookup", baseline: true }] },
  {
    script: "holdings-figures.ts",
    rows: [0, 24, 120].map((txns) => ({ path: `figures of 5 positions, ${txns} transactions each`, baseline: true })),
  },
  { script: "order-dispatch.ts", rows: [{ path: "dispatch of a 50-order backlog", baseline: true }, { path: "placement -> ACCEPTED, idle", baseline: false }] },
  { script: "webhook-deliveries.ts", rows: [{ path: "deliveries from a 200-delivery backlog, signatures verified", baseline: true }, { path: "deliveries while events are written (event -> receipt)", baseline: true }] },
  {
    script: "hostile-input.ts",
    rows: [{ path: "order body", baseline: true }, { path: "investor body", baseline: true }, { path: "hostile body (100 levels, NULs, __proto__)", baseline: true }],
  },
  {
    script: "library-copies.ts",
    rows: [
      { path: "GET /api/orders/v1/{id}: runner copy", baseline: true },
      { path: "POST /api/orders/v1/ (lump sum): runner copy", baseline: true },
      { path: "GET /api/orders/v1/{id}: access line by hand", baseline: true },
    ],
  },
  {
    script: "hot-reads.ts",
    rows: [
      { path: "GET /api/orders/v1/{id}", baseline: true },
      { path: "POST /api/holdings/v1/lookup", baseline: true },
      { path: "POST /api/holdings/v1/lookup, 24 transactions a position", baseline: true },
      { path: "POST /api/orders/v1/ (lump sum)", baseline: true },
    ],
  },
  { script: "holdings-import.ts", rows: [{ path: "holdings import (parse, join, hash, COPY, replace)", baseline: true }, { path: "holdings import, peak RSS", baseline: false }] },
];

const HEADER = ["path", "unit", "ours", "p50 ms", "p99 ms", "baseline", "baseline rate", "p50 ms", "p99 ms", "ratio", "target", "met"];
const NUMBER = /^[\d,]+$/;

/** The printed table's rows, cells trimmed, keyed by path (rows sharing a path are kept in order). */
function tableRows(output: string): string[][] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .map((line) => line.slice(1, -1).split("|").map((cell) => cell.trim()));
}

describe.concurrent("benchmarks (--smoke)", () => {
  for (const bench of BENCHMARKS) {
    it(`${bench.script} prints its figures beside its baseline's`, async () => {
      const db = await createTestDatabase();
      try {
        const started = runEntry(path.join(ROOT, "bench", bench.script), ["--smoke"], {
          DATABASE_URL: db.url,
          MF_ENV: "sandbox",
          NODE_EXTRA_CA_CERTS: path.join(ROOT, "test/fixtures/tls/ca.pem"),
        });
        const code = await started.exited;
        const output = started.output();
        expect(code, output).toBe(0);
        const [header, ...rows] = tableRows(output);
        expect(header).toEqual(HEADER);
        for (const expected of bench.rows) {
          const row = rows.find((cells) => cells[0] === expected.path);
          expect(row, `${expected.path} in\n${output}`).toBeDefined();
          const [, , ours, p50, , baselineName, baselineRate, , , ratio, , met] = row!;
          // Ours: a rate (or, for a latency row, its p50).
          expect(NUMBER.test(ours!) || NUMBER.test(p50!), output).toBe(true);
          if (expected.baseline) {
            expect(baselineName).not.toBe("-");
            expect(baselineRate).toMatch(NUMBER);
            expect(ratio).toMatch(/^\d+\.\d\d$/);
          }
          expect(["yes", "NO", "-"]).toContain(met);
        }
      } finally {
        await db.drop();
      }
    }, 180_000);
  }
});
