import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../src/domains/events/events.repo.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { purgeOldDeliveries } from "../../src/domains/webhooks/jobs/purge-old-deliveries.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

// WEBHOOK_RETENTION_DAYS=30 (the default, said here so the ages below read against it); PARKED and FAILED: 90 days.
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETENTION_DAYS: "30" });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const DAY_MS = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY_MS);

const purgeJobs = () =>
  app.prisma.$queryRawUnsafe<Array<{ key: string | null; payload: Record<string, unknown> }>>(
    `SELECT j.key, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'webhooks__purge_old_deliveries' ORDER BY j.id`,
  );
const deliveryIds = async () => (await app.prisma.webhookDelivery.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((d) => d.id);
const attemptIds = async () => [...new Set((await app.prisma.webhookAttempt.findMany({ orderBy: { deliveryId: "asc" } })).map((a) => a.deliveryId))];

/** The deliveries by role, each made by the real flow (an event, its fan-out, an attempt answered 200), then aged. */
const d: Record<string, string> = {};
let eventsBefore = 0;

/** Moves a delivery to `status`, last moved (and for DELIVERED, delivered) `days` ago. */
async function age(id: string, status: string, days: number, extra = ""): Promise<void> {
  await app.prisma.$executeRawUnsafe(
    `UPDATE webhook_deliveries SET status = $2::text, updated_at = $3::timestamptz, created_at = $3::timestamptz,
            delivered_at = CASE WHEN $2::text = 'DELIVERED' THEN $3::timestamptz ELSE NULL END ${extra} WHERE id = $1`,
    id, status, ago(days),
  );
}

beforeAll(async () => {
  const owner = await app.newDistributor();
  const sub = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: owner.token, json: { url: receiver.url(), events: ["order.*"] } });
  expect(sub.status).toBe(201);
  const roles = ["old1", "old2", "old3", "old4", "old5", "recent", "fresh", "parked89", "parked91", "failed91", "failed10", "pending", "inFlight"];
  for (const [i, role] of roles.entries()) {
    await app.prisma.$transaction((tx) =>
      recordEvent(tx, {
        distributorId: owner.distributor_id, resourceType: "order", resourceId: `ord_ret_${i}`, event: "order.accepted",
        data: { order_id: `ord_ret_${i}`, status: "ACCEPTED", provider_remark: null },
      }),
    );
  }
  await runTask(app, deliverWebhooks, {});
  const rows = await app.prisma.webhookDelivery.findMany({ orderBy: { id: "asc" } });
  expect(rows.map((r) => r.status)).toEqual(roles.map(() => "DELIVERED"));
  expect(await app.prisma.webhookAttempt.count()).toBe(roles.length);
  roles.forEach((role, i) => (d[role] = rows[i]!.id));
  // A second attempt row for an old one: all of a delivery's attempts go with it.
  await app.prisma.webhookAttempt.create({ data: { deliveryId: d.old1!, attemptNo: 2, attemptedAt: ago(31), statusCode: 200, latencyMs: 5, responseBody: "ok" } });

  for (const role of ["old1", "old2", "old3", "old4", "old5"]) await age(d[role]!, "DELIVERED", 31);
  await age(d.recent!, "DELIVERED", 29);
  await age(d.parked89!, "PARKED", 89);
  await age(d.parked91!, "PARKED", 91);
  await age(d.failed91!, "FAILED", 91);
  await age(d.failed10!, "FAILED", 10);
  await age(d.pending!, "PENDING", 200, ", next_attempt_at = now() + interval '1 hour'");
  await age(d.inFlight!, "PENDING", 200, ", next_attempt_at = now() - interval '1 minute', lease_until = now() + interval '1 minute'");
  eventsBefore = await app.prisma.event.count();
  await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
});

describe("webhooks__purge_old_deliveries", () => {
  it("deletes at most one batch per kind when its time budget is spent, and queues a job for the rest", async () => {
    await runTask(app, purgeOldDeliveries, { batch_size: 2, budget_ms: 0 });
    // The two oldest DELIVERED (delivered_at order, ties by the index's order) and the two PARKED/FAILED past 90 days.
    const left = await deliveryIds();
    expect(left).toHaveLength(13 - 4);
    expect(left).not.toContain(d.parked91);
    expect(left).not.toContain(d.failed91);
    expect(["old1", "old2", "old3", "old4", "old5"].filter((role) => !left.includes(d[role]!))).toHaveLength(2);
    expect(await purgeJobs()).toEqual([{ key: "webhooks__purge_old_deliveries:more", payload: { batch_size: 2, budget_ms: 0 } }]);
  });

  it("the continuations remove exactly the old DELIVERED ones and the PARKED and FAILED ones past 90 days, with their attempts", async () => {
    for (let runs = 0; (await purgeJobs()).length > 0; runs++) {
      expect(runs).toBeLessThan(5);
      const [job] = await purgeJobs();
      await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
      await runTask(app, purgeOldDeliveries, job!.payload as { batch_size: number; budget_ms: number });
    }
    const kept = [d.recent, d.fresh, d.parked89, d.failed10, d.pending, d.inFlight].map(String).sort();
    expect(await deliveryIds()).toEqual(kept);
    expect(await attemptIds()).toEqual(kept);
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.inFlight! } })).toMatchObject({ status: "PENDING" });
    // Events are the audit trail: none goes.
    expect(await app.prisma.event.count()).toBe(eventsBefore);
  });

  it("a second run (the daily one, default batch and budget) removes nothing and queues nothing", async () => {
    const before = await app.prisma.webhookAttempt.count();
    await runTask(app, purgeOldDeliveries, {});
    expect(await deliveryIds()).toHaveLength(6);
    expect(await app.prisma.webhookAttempt.count()).toBe(before);
    expect(await purgeJobs()).toEqual([]);
  });

  it("a full run with a small batch loops until none is left, without a continuation", async () => {
    await age(d.recent!, "DELIVERED", 45);
    await age(d.parked89!, "PARKED", 120);
    await runTask(app, purgeOldDeliveries, { batch_size: 1 });
    expect(await deliveryIds()).toEqual([d.fresh, d.failed10, d.pending, d.inFlight].map(String).sort());
    expect(await purgeJobs()).toEqual([]);
  });

  it("runs on a real worker from its crontab's job (the payload carries graphile-worker's _cron)", async () => {
    await age(d.fresh!, "DELIVERED", 31);
    await app.prisma.$executeRawUnsafe(
      `SELECT graphile_worker.add_job('webhooks__purge_old_deliveries', '{"_cron": {"ts": "2026-11-27T21:45:00Z", "backfilled": false}}'::json)`,
    );
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(() => deliveryIds(), { timeout: 10_000 }).toEqual([d.failed10, d.pending, d.inFlight].map(String).sort());
      await expect.poll(async () => (await purgeJobs()).length, { timeout: 10_000 }).toBe(0);
      expect(app.logs.some((l) => l.includes("job payload rejected by its schema"))).toBe(false);
      const summary = app.logs.filter((l) => l.includes("old webhook deliveries purged")).map((l) => JSON.parse(l) as Record<string, unknown>).at(-1);
      expect(summary).toMatchObject({ task: "webhooks__purge_old_deliveries", deliveries: 1, attempts: 1, more: false, retention_days: 30 });
    } finally {
      await worker.stop();
    }
  });
});
