import pg from "pg";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/platform/lib/crypto.js";
import { enqueue } from "../../src/domains/shared/jobs/enqueue.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();

const jobsNamed = async (task: string) =>
  app.prisma.$queryRawUnsafe<Array<{ id: string; payload: unknown; run_at: Date; key: string | null }>>(
    `SELECT j.id::text, j.payload, j.run_at, j.key
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = $1`,
    task,
  );

describe("enqueue(tx, ...)", () => {
  it("adds the job when the transaction commits, and not when it rolls back", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    await expect(
      app.prisma.$transaction(async (tx) => {
        await enqueue(tx, "auth__purge_expired_tokens", {}, { jobKey: "rolled-back" });
        throw new Error("business rule failed after enqueue");
      }),
    ).rejects.toThrow("business rule failed");
    expect(await jobsNamed("auth__purge_expired_tokens")).toEqual([]);

    const runAt = new Date(Date.now() + 3_600_000);
    await app.prisma.$transaction(async (tx) => {
      await enqueue(tx, "auth__purge_expired_tokens", {}, { jobKey: "committed", runAt });
    });
    const jobs = await jobsNamed("auth__purge_expired_tokens");
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ payload: {}, key: "committed" });
    expect(jobs[0]!.run_at.getTime()).toBe(runAt.getTime());
  });

  it("adds a keyed job even when a worker locks its pending namesake in the middle of add_job (it asks again)", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    await enqueue(app.prisma, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:race" });
    // The race, made certain: a "worker" locks the pending job in a transaction it has not committed yet.
    // add_jobs' first statement still sees the job unlocked (so leaves its key), its insert then waits on
    // the row, and once the worker commits, ON CONFLICT finds the job locked and skips: nothing added.
    const worker = new pg.Client({ connectionString: app.databaseUrl });
    await worker.connect();
    try {
      await worker.query("BEGIN");
      await worker.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'racing-worker' WHERE key = 'webhooks__deliver:race'");
      const adding = app.prisma.$transaction(async (tx) => {
        await enqueue(tx, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:race" });
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await worker.query("COMMIT");
      await adding;
    } finally {
      await worker.end();
    }
    const jobs = await app.prisma.$queryRawUnsafe<Array<{ key: string | null; locked_by: string | null }>>(
      `SELECT j.key, j.locked_by FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'webhooks__deliver' ORDER BY j.id`,
    );
    // The locked job lost its key to the second call, which added a pending job for the new work.
    expect(jobs).toEqual([
      { key: null, locked_by: "racing-worker" },
      { key: "webhooks__deliver:race", locked_by: null },
    ]);
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
  });

  it("parses the payload with the task's schema before storing it", async () => {
    await expect(
      enqueue(app.prisma, "auth__purge_expired_tokens", { unexpected: 1 } as unknown as Record<string, never>),
    ).rejects.toThrow();
  });
});

describe("the worker", () => {
  it("runs a task's handler on a real graphile-worker job", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    const d = await app.newDistributor();
    await app.prisma.accessToken.update({ where: { tokenHash: sha256Hex(d.token) }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await enqueue(app.prisma, "auth__purge_expired_tokens", {});

    const before = Date.now();
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(() => app.prisma.accessToken.count({ where: { tokenHash: sha256Hex(d.token) } }), { timeout: 10_000 }).toBe(0);
      await expect.poll(async () => (await jobsNamed("auth__purge_expired_tokens")).length, { timeout: 10_000 }).toBe(0);
      // The jobs it queues when it starts (STARTUP_JOBS): the sweep of placed orders left without a dispatch job, in 6 s.
      const startup = await jobsNamed("orders__queue_lost_dispatches");
      expect(startup.map((j) => j.key)).toEqual(["orders__queue_lost_dispatches:startup"]);
      expect(startup[0]!.run_at.getTime()).toBeGreaterThanOrEqual(before + 6_000);
      expect(startup[0]!.run_at.getTime()).toBeLessThan(Date.now() + 6_000);
    } finally {
      await worker.stop();
    }
  });

  it("runs the jobs its crontab schedules (their payload carries graphile-worker's _cron)", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    const d = await app.newDistributor();
    await app.prisma.accessToken.update({ where: { tokenHash: sha256Hex(d.token) }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await app.prisma.$executeRawUnsafe(
      `SELECT graphile_worker.add_job('auth__purge_expired_tokens', '{"_cron": {"ts": "2026-11-22T03:17:00Z", "backfilled": false}}'::json)`,
    );
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(() => app.prisma.accessToken.count({ where: { tokenHash: sha256Hex(d.token) } }), { timeout: 10_000 }).toBe(0);
      expect(app.logs.some((l) => l.includes("job payload rejected by its schema"))).toBe(false);
    } finally {
      await worker.stop();
    }
  });

  it("drops a job whose payload does not parse instead of retrying it", async () => {
    await app.prisma.$executeRawUnsafe("DELETE FROM graphile_worker._private_jobs");
    await app.prisma.$executeRawUnsafe(`SELECT graphile_worker.add_job('auth__purge_expired_tokens', '{"bogus": true}'::json)`);
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => (await jobsNamed("auth__purge_expired_tokens")).length, { timeout: 10_000 }).toBe(0);
      expect(app.logs.some((l) => l.includes("job payload rejected by its schema"))).toBe(true);
    } finally {
      await worker.stop();
    }
  });
});
