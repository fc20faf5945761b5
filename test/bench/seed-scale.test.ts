import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { ROOT, runEntry } from "../helpers/process.js";

/**
 * bench/seed-scale.ts at a tiny scale into a test database: every row goes through COPY with the tables' CHECK
 * constraints in place and the keys and foreign keys added back afterwards, so a finished run proves that every
 * generated value fits them. Checked here: the counts, the shapes the benchmark at scale relies on.
 */
describe("bench:seed-scale (tiny)", () => {
  it("fills every table with the asked counts and shapes", async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-seed-scale-"));
    const client = new pg.Client({ connectionString: db.url });
    try {
      const started = runEntry(path.join(ROOT, "bench", "seed-scale.ts"), ["--orders", "200", "--investors", "100", "--events", "400", "--deliveries", "300", "--positions", "250", "--database-url", db.url, "--data-dir", dataDir], { MF_ENV: "sandbox" });
      const code = await started.exited;
      const output = started.output();
      expect(code, output).toBe(0);
      expect(output).toMatch(/webhook_attempts +[\d,]+ rows in .* rows\/s/);
      expect(output).toMatch(/database size \d+ [kMG]B/);

      await client.connect();
      const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
      expect(await count("SELECT count(*) AS n FROM investors")).toBe(100);
      expect(await count("SELECT count(*) AS n FROM investment_accounts")).toBe(100);
      expect(await count("SELECT count(*) AS n FROM orders")).toBe(200);
      expect(await count("SELECT count(*) AS n FROM events")).toBe(400);
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries")).toBe(300);
      expect(await count("SELECT count(*) AS n FROM holding_positions")).toBe(250);
      expect(await count("SELECT count(*) AS n FROM distributors WHERE arn LIKE 'ARN-9%'")).toBe(8);
      // About two attempts a delivery; the sum of the deliveries' counters is exactly the attempts' rows.
      const attempts = await count("SELECT count(*) AS n FROM webhook_attempts");
      expect(attempts).toBe(await count("SELECT sum(attempts) AS n FROM webhook_deliveries"));
      expect(attempts).toBeGreaterThan(400);
      expect(attempts).toBeLessThan(800);
      // The biggest distributor holds most of the orders.
      const biggest = await count("SELECT max(n) AS n FROM (SELECT count(*) AS n FROM orders GROUP BY distributor_id) c");
      expect(biggest).toBeGreaterThan(100);
      // Open orders at the end, installments' child orders under their registrations, every order's investor and account real.
      expect(await count("SELECT count(*) AS n FROM orders WHERE status IN ('PENDING', 'ACCEPTED') AND parent_order_id IS NULL AND order_type IN ('LUMPSUM_PURCHASE', 'REDEMPTION', 'SWITCH', 'SIP_TOPUP')")).toBeGreaterThanOrEqual(4);
      expect(await count("SELECT count(DISTINCT order_type) AS n FROM orders")).toBe(8);
      expect(await count("SELECT count(*) AS n FROM orders o LEFT JOIN investment_accounts a ON a.id = o.investment_account_id AND a.investor_id = o.investor_id AND a.distributor_id = o.distributor_id WHERE a.id IS NULL")).toBe(0);
      expect(await count("SELECT count(*) AS n FROM order_installments i JOIN orders c ON c.id = i.child_order_id WHERE c.parent_order_id <> i.order_id OR c.installment_no <> i.installment_no")).toBe(0);
      expect(await count("SELECT count(*) AS n FROM order_installments WHERE status = 'CREATED' AND child_order_id IS NULL")).toBe(0);
      // A payment for each order that got as far as paying, following its payment_status.
      const paying = await count("SELECT count(*) AS n FROM orders WHERE payment_status IN ('PAID', 'FAILED', 'REFUNDED', 'PENDING')");
      expect(paying).toBeGreaterThan(50);
      expect(await count("SELECT count(*) AS n FROM payments p JOIN orders o ON o.id = p.order_id AND o.distributor_id = p.distributor_id AND o.investor_id = p.investor_id")).toBe(paying);
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id AND e.distributor_id = d.distributor_id AND e.event = d.event")).toBe(300);
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.distributor_id = d.distributor_id")).toBe(300);
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at <= now()")).toBeGreaterThanOrEqual(2);
      // The positions belong to the generated investors' PANs, under the investor's distributor.
      expect(await count("SELECT count(*) AS n FROM holding_positions p JOIN investors i ON i.pan_hash = p.pan_hash AND i.distributor_id = p.distributor_id")).toBe(250);
      // Statistics are fresh (ANALYZE ran).
      expect(await count("SELECT count(*) AS n FROM pg_stat_user_tables WHERE relname = 'orders' AND last_analyze IS NOT NULL")).toBe(1);
    } finally {
      await client.end().catch(() => {});
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
