import { beforeAll, describe, expect, it } from "vitest";
import { purgeBatchSql, type PurgeKind } from "../../src/domains/webhooks/retention.repo.js";
import { buildTaskList, CRON_ITEMS } from "../../src/tasks.js";
import { useTestApp } from "../helpers/app.js";

// The purge's batches must read their partial index from its oldest entry and stop at the batch's size, on a
// table of realistic shape (60,000 deliveries over 120 days, most DELIVERED, one attempt each), never scan it.

const app = useTestApp();
const DELIVERIES = 60_000;

beforeAll(async () => {
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (id, distributor_id, subscription_id, event_id, event, payload, status, attempts,
       delivered_at, next_attempt_at, created_at, updated_at)
     SELECT 'whd_plan_' || lpad(n::text, 6, '0'), 'dst_plan_' || (n % 7), 'whs_plan_' || (n % 7), 'evt_plan_' || n,
            'order.accepted', '{}', s.status, 1,
            CASE WHEN s.status = 'DELIVERED' THEN t END, CASE WHEN s.status = 'PENDING' THEN t END, t, t
       FROM generate_series(1, ${DELIVERIES}) AS n,
            LATERAL (SELECT now() - make_interval(secs => (${DELIVERIES} - n) * 172.8) AS t) AS at,
            LATERAL (SELECT CASE WHEN n % 50 = 0 THEN 'PARKED' WHEN n % 70 = 0 THEN 'FAILED' WHEN n % 90 = 0 THEN 'PENDING'
                                 ELSE 'DELIVERED' END AS status) AS s`,
  );
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO webhook_attempts (delivery_id, attempt_no, attempted_at, status_code, latency_ms, response_body)
     SELECT id, 1, created_at, 200, 12, 'ok' FROM webhook_deliveries WHERE id LIKE 'whd_plan_%'`,
  );
  await app.prisma.$executeRawUnsafe("ANALYZE webhook_deliveries");
  await app.prisma.$executeRawUnsafe("ANALYZE webhook_attempts");
});

async function planOf(sql: string, ...params: unknown[]): Promise<string> {
  const [row] = await app.prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(`EXPLAIN (FORMAT JSON) ${sql}`, ...params);
  return JSON.stringify(row!["QUERY PLAN"]);
}

describe("the retention purge's plan", () => {
  const cases: Array<[PurgeKind, number, string]> = [
    ["DELIVERED", 30, "webhook_deliveries_delivered_at_purge_idx"],
    ["PARKED_OR_FAILED", 90, "webhook_deliveries_settled_at_purge_idx"],
  ];
  for (const [kind, days, index] of cases) {
    it(`picks a ${kind} batch by a range of ${index} and deletes the attempts by their key`, async () => {
      const plan = await planOf(purgeBatchSql(kind), new Date(Date.now() - days * 86_400_000), 1000);
      expect(plan).toContain(`"Index Name":"${index}"`);
      expect(plan).toContain('"Index Name":"webhook_attempts_pkey"');
      expect(plan).toContain('"Index Name":"webhook_deliveries_pkey"');
      expect(plan).toContain('"Node Type":"Limit"');
      expect(plan).not.toContain("Seq Scan");
      expect(plan).not.toContain('"Node Type":"Sort"');
    });
  }
});

describe("the purge's schedule", () => {
  const at = (iso: string) => {
    const t = new Date(iso);
    return { min: t.getUTCMinutes(), hour: t.getUTCHours(), date: t.getUTCDate(), month: t.getUTCMonth() + 1, dow: t.getUTCDay() };
  };
  it("is a task of the worker, run daily at 03:15 India time (21:45 UTC the day before) from the crontab", () => {
    expect(Object.keys(buildTaskList(app.services))).toContain("webhooks__purge_old_deliveries");
    const item = CRON_ITEMS.find((c) => c.identifier === "webhooks__purge_old_deliveries");
    expect(item).toMatchObject({ task: "webhooks__purge_old_deliveries", options: { backfillPeriod: 6 * 3_600_000 } });
    const match = item!.match as (digest: ReturnType<typeof at>) => boolean;
    const year = new Date().getUTCFullYear();
    expect(match(at(`${year}-03-09T21:45:00Z`))).toBe(true);
    expect(match(at(`${year}-03-10T03:15:00Z`))).toBe(false);
    expect(match(at(`${year}-03-09T21:46:00Z`))).toBe(false);
  });
});
