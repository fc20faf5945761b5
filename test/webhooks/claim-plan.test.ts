import { beforeAll, describe, expect, it } from "vitest";
import { claimDueDeliveries } from "../../src/domains/webhooks/claims.repo.js";
import { releaseLeases } from "../../src/domains/webhooks/deliveries.repo.js";
import { DEFAULT_TUNING } from "../../src/domains/webhooks/attempts.js";
import { useTestApp } from "../helpers/app.js";
import { nodesOf, planOfStatementOn, rowsRemoved, scansOf, type PlanNode } from "../helpers/scale-data.js";

// The webhook claim on a table of realistic shape (60,000 deliveries, most DELIVERED; a backlog of about 1,800 due
// ones for the biggest of five distributors, about 10 for each other one): its picks read each distributor's due
// deliveries by index from the oldest, the fair ranking runs once, and the chosen ones are updated by their key,
// so the claim's cost follows the batch, not the backlog nor the table. At 20M deliveries (bench:scale) the update
// once went from the status index's unleased PENDING rows and ran the ranking again for each one (54 ms).

const app = useTestApp();
const DELIVERIES = 60_000;

beforeAll(async () => {
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO webhook_subscriptions (id, distributor_id, url, events, secret_encrypted, status)
     SELECT 'whs_claim_' || d, 'dst_claim_' || d, 'https://hooks.example.in/' || d, ARRAY['order.allotted'], 'x', 'ACTIVE' FROM generate_series(0, 4) AS d`,
  );
  // Distributor 0 has the backlog (every third of its rows among the last 9,000 is PENDING and due); the others about 10 each.
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (id, distributor_id, subscription_id, event_id, event, payload, status, attempts,
       delivered_at, next_attempt_at, created_at, updated_at)
     SELECT 'whd_claim_' || lpad(n::text, 6, '0'), 'dst_claim_' || d.d, 'whs_claim_' || d.d, 'evt_claim_' || n,
            'order.allotted', '{}', s.status, 1,
            CASE WHEN s.status = 'DELIVERED' THEN t END, CASE WHEN s.status = 'PENDING' THEN t END, t, t
       FROM generate_series(1, ${DELIVERIES}) AS n,
            LATERAL (SELECT CASE WHEN n % 10 < 6 THEN 0 ELSE 1 + n % 4 END AS d) AS d,
            LATERAL (SELECT now() - make_interval(secs => (${DELIVERIES} - n) * 60) AS t) AS at,
            LATERAL (SELECT CASE WHEN n > ${DELIVERIES} - 9000 AND d.d = 0 AND n % 3 = 0 THEN 'PENDING'
                                 WHEN n > ${DELIVERIES} - 200 AND d.d > 0 AND n % 2 = 0 THEN 'PENDING'
                                 ELSE 'DELIVERED' END AS status) AS s`,
  );
  await app.prisma.$executeRawUnsafe("ANALYZE webhook_deliveries");
  await app.prisma.$executeRawUnsafe("ANALYZE webhook_subscriptions");
}, 120_000);

/** EXPLAIN ANALYZE of the claim's statement, in a transaction rolled back (so nothing stays leased). */
async function claimPlan(): Promise<PlanNode> {
  const limits = { batch: DEFAULT_TUNING.batch, perDistributor: DEFAULT_TUNING.perDistributor, perSubscription: DEFAULT_TUNING.perSubscription, leaseMs: 60_000 };
  return planOfStatementOn(app.prisma, "webhook_deliveries", async () => {
    const claimed = await claimDueDeliveries(app.prisma, limits);
    await releaseLeases(app.prisma, claimed.map((c) => ({ id: c.id, leaseUntil: c.lease_until })));
  });
}

describe("the webhook claim's plan", () => {
  it("picks each distributor's due deliveries by a range of its index, ranks them once, and leases the chosen by key", async () => {
    const plan = await claimPlan();
    expect(plan["Actual Rows"]).toBe(DEFAULT_TUNING.batch);
    const deliveries = scansOf(plan, "webhook_deliveries");
    expect(deliveries.map((n) => n["Node Type"])).not.toContain("Seq Scan");
    const picks = deliveries.filter((n) => n["Index Name"] === "webhook_deliveries_pending_due_idx");
    expect(picks).toHaveLength(1);
    // One short range per distributor (five), each stopping at the per-distributor cap.
    expect(picks[0]!["Actual Loops"]).toBe(5);
    expect(picks[0]!["Actual Rows"] * picks[0]!["Actual Loops"]).toBeLessThanOrEqual(5 * DEFAULT_TUNING.perDistributor);
    // The chosen ids leased by one scan of the primary key (the batch's ids as one array), nothing else read to lease.
    const lease = deliveries.filter((n) => n["Index Name"] === "webhook_deliveries_pkey");
    expect(lease.map((n) => [n["Actual Loops"], n["Actual Rows"]])).toEqual([[1, DEFAULT_TUNING.batch]]);
    // Only the partial indexes of the open deliveries: the pending one for the picks, the leased one (or the pending one) for the held count.
    const indexes = nodesOf(plan).map((n) => n["Index Name"]).filter((name) => name?.startsWith("webhook_deliveries"));
    expect(indexes.filter((name) => !["webhook_deliveries_pending_due_idx", "webhook_deliveries_leased_idx", "webhook_deliveries_pkey"].includes(name!))).toEqual([]);
    // The fair ranking (the window functions) is computed once, not again for every row the update looks at.
    expect(nodesOf(plan).filter((n) => n["Node Type"] === "WindowAgg").map((n) => n["Actual Loops"])).toEqual([1, 1, 1]);
    expect(rowsRemoved(plan)).toBeLessThanOrEqual(DEFAULT_TUNING.batch);
  });
});
