import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { ROOT, runEntry } from "../helpers/process.js";

const PATHS = [
  "placement (POST /api/orders/v1/)", "GET /api/orders/v1/{id}", "order list, first page", "order list, deep cursor page", "order list, status=ACCEPTED",
  "order list, investor_id", "investor list", "GET /api/investors/v1/{id}", "holdings lookup", "webhook deliveries, status + event",
  "status sync's pick (first batch)", "webhook claim", "installment scheduler's pick", "token check (live token by hash)",
  "events, oldest page", "events since yesterday", "events of one order", "lost-dispatch sweep's pick",
];

/** bench/scale-bench.ts --smoke on a tiny generated database: every hot path runs on both sides and prints its row. Nothing is timed. */
describe("bench:scale (--smoke)", () => {
  it("prints each hot path's figures on both databases and saves the plans", async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-scale-bench-"));
    try {
      const seeded = runEntry(path.join(ROOT, "bench", "seed-scale.ts"), ["--orders", "300", "--investors", "100", "--events", "300", "--deliveries", "200", "--positions", "100", "--database-url", db.url, "--data-dir", dataDir], { MF_ENV: "sandbox" });
      expect(await seeded.exited, seeded.output()).toBe(0);
      const started = runEntry(path.join(ROOT, "bench", "scale-bench.ts"), ["--smoke", "--scale", "test", "--database-url", db.url, "--data-dir", dataDir], { MF_ENV: "sandbox" });
      const code = await started.exited;
      const output = started.output();
      expect(code, output).toBe(0);
      const rows = output.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---")).map((line) => line.slice(1, -1).split("|").map((c) => c.trim()));
      expect(rows[0]).toEqual(["path", "small p50 ms", "small p99 ms", "big p50 ms", "big p99 ms", "p50 ratio", "p99 ratio", "target", "met", "plan flags", "rows small/big", "gc-paused samples small/big"]);
      for (const name of PATHS) {
        const row = rows.find((cells) => cells[0] === name);
        expect(row, `${name} in\n${output}`).toBeDefined();
        for (const cell of row!.slice(1, 7)) expect(cell).toMatch(/^\d+(\.\d+)?$/);
        expect(["yes", "NO"]).toContain(row![8]);
      }
      // Both sides generated at the same (smoke) scale: the picks and lists answer as many rows on each, a full batch's worth where the scale allows.
      for (const name of ["order list, status=ACCEPTED", "status sync's pick (first batch)", "lost-dispatch sweep's pick", "webhook claim", "installment scheduler's pick", "holdings lookup"]) {
        const [small, big] = rows.find((cells) => cells[0] === name)![10]!.split("/").map(Number);
        expect(small, name).toBeGreaterThan(0);
        expect(small, name).toBe(big);
      }
      const saved = /plans of every statement: (\S+)/.exec(output)?.[1];
      expect(saved, output).toBeDefined();
      await rm(path.join(ROOT, path.dirname(saved!)), { recursive: true, force: true });
    } finally {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
