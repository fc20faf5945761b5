import { beforeAll, describe, expect, it } from "vitest";
import { enqueueCommitted, jobToAdd } from "../../src/domains/shared/jobs/enqueue.js";
import { syncOrdersWithExchange } from "../../src/domains/orders/jobs/sync-exchange.js";
import { queueLostDispatches } from "../../src/domains/orders/jobs/dispatch-recovery.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor } from "../helpers/orders.js";
import { recordStatements, restoreStatementsAfterEach, stopRecordingStatements } from "../helpers/pg-statements.js";

/**
 * A placement writes its order on its own and adds the dispatch job right after, batched with the other
 * placements of the moment (orders.service.ts placeOrder): one add_jobs call, so one NOTIFY, for many
 * orders. The order is the durable record: a job never added is queued by the status sync's sweep.
 */
const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "950001");
  ctx = await orderingInvestor(app);
});

restoreStatementsAfterEach();

const ADD_JOBS = /^SELECT added\.key FROM graphile_worker\.add_jobs\(/;
const place = (clientRef?: string) =>
  app.http("POST", "/api/orders/v1/", {
    token: ctx.token,
    json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "950001", amount: 1000, purchase_type: "FRESH", ...(clientRef ? { client_ref: clientRef } : {}) },
  });

describe("enqueueCommitted", () => {
  it("adds the jobs asked for at the same moment with one add_jobs call, each with its payload, key and attempts", async () => {
    const statements = recordStatements();
    const keys = ["batch-a", "batch-b", "batch-c", "batch-d", "batch-e"];
    const added = await Promise.all(keys.map((key) => enqueueCommitted(app.prisma, jobToAdd("auth__purge_expired_tokens", {}, { jobKey: key, maxAttempts: 2 }))));
    stopRecordingStatements();
    expect(added).toEqual([true, true, true, true, true]);
    expect(statements.filter((s) => ADD_JOBS.test(s.text))).toHaveLength(1);
    const rows = await app.prisma.$queryRawUnsafe<Array<{ key: string; max_attempts: number; payload: unknown }>>(
      `SELECT key, max_attempts, payload FROM graphile_worker._private_jobs WHERE key = ANY($1::text[]) ORDER BY key`, keys);
    expect(rows).toEqual(keys.map((key) => ({ key, max_attempts: 2, payload: {} })));
  });

  it("answers false for a keyed job graphile-worker skipped (its pending namesake locked by a worker), true for the rest", async () => {
    await enqueueCommitted(app.prisma, jobToAdd("auth__purge_expired_tokens", {}, { jobKey: "locked-one" }));
    await app.prisma.$executeRawUnsafe(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'another-worker' WHERE key = 'locked-one'`);
    const [locked, free] = await Promise.all([
      enqueueCommitted(app.prisma, jobToAdd("auth__purge_expired_tokens", {}, { jobKey: "locked-one" })),
      enqueueCommitted(app.prisma, jobToAdd("auth__purge_expired_tokens", {}, { jobKey: "free-one" })),
    ]);
    // add_jobs first takes the key off the locked job, so the new one is added beside it.
    expect([locked, free]).toEqual([true, true]);
    const rows = await app.prisma.$queryRawUnsafe<Array<{ key: string | null; locked_by: string | null }>>(
      `SELECT key, locked_by FROM graphile_worker._private_jobs WHERE key IN ('locked-one', 'free-one') OR locked_by = 'another-worker' ORDER BY id`);
    expect(rows).toEqual([{ key: null, locked_by: "another-worker" }, { key: "locked-one", locked_by: null }, { key: "free-one", locked_by: null }]);
    await app.prisma.$executeRawUnsafe(`DELETE FROM graphile_worker._private_jobs WHERE locked_by = 'another-worker'`);
  });
});

describe("a placement's dispatch job", () => {
  it("exists when the 201 is answered, once per order, and concurrent placements share add_jobs calls", async () => {
    const statements = recordStatements();
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => place(`after-commit-${i}`)));
    stopRecordingStatements();
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(201));
    for (const response of responses) {
      expect(await queuedJobs(app, "orders__dispatch", "order_id", response.body.id)).toEqual([
        { key: `orders__dispatch:${response.body.id}`, payload: { order_id: response.body.id }, max_attempts: 5 },
      ]);
    }
    const calls = statements.filter((s) => ADD_JOBS.test(s.text)).length;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(40);
  });

  it("a repeated client_ref answers the first order and adds no second job", async () => {
    const first = await place("after-commit-repeat");
    const statements = recordStatements();
    const repeat = await place("after-commit-repeat");
    stopRecordingStatements();
    expect([first.status, repeat.status]).toEqual([201, 201]);
    expect(repeat.body).toEqual(first.body);
    expect(statements.filter((s) => /graphile_worker/.test(s.text))).toEqual([]);
    expect(await queuedJobs(app, "orders__dispatch", "order_id", first.body.id)).toHaveLength(1);
  });

  it("when adding it fails the placement stands (201, PENDING) and the status sync's sweep queues the dispatch", async () => {
    recordStatements(ADD_JOBS);
    const response = await place("after-commit-failed-job");
    stopRecordingStatements();
    expect(response.status).toBe(201);
    expect(response.body.status).toBe("PENDING");
    const id = response.body.id as string;
    expect(await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, exchangeOrderNumber: true } })).toEqual({ status: "PENDING", exchangeOrderNumber: null });
    expect(await queuedJobs(app, "orders__dispatch", "order_id", id)).toEqual([]);

    await runTask(app, syncOrdersWithExchange, {});
    expect(await queuedJobs(app, "orders__dispatch", "order_id", id)).toEqual([{ key: `orders__dispatch:${id}`, payload: { order_id: id }, max_attempts: 5 }]);
  });

  it("the minute's sweep queues the dispatch of an order left without its job once it is 5 s old; a young, a claimed or a queued one is left", async () => {
    recordStatements(ADD_JOBS);
    const [lost, young, claimed] = [await place(), await place(), await place()];
    stopRecordingStatements();
    const queued = await place();
    const age = (id: string, seconds: number) => app.prisma.$executeRawUnsafe(`UPDATE orders SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, id, seconds);
    await age(lost.body.id, 6);
    await age(young.body.id, 3);
    await age(claimed.body.id, 60);
    await age(queued.body.id, 60);
    await app.prisma.$executeRawUnsafe(`UPDATE orders SET dispatch_claimed_at = now() WHERE id = $1`, claimed.body.id);

    await runTask(app, queueLostDispatches, {});
    const jobsOf = (id: string) => queuedJobs(app, "orders__dispatch", "order_id", id);
    expect(await jobsOf(lost.body.id)).toEqual([{ key: `orders__dispatch:${lost.body.id}`, payload: { order_id: lost.body.id }, max_attempts: 5 }]);
    expect(await jobsOf(young.body.id)).toEqual([]);
    expect(await jobsOf(claimed.body.id)).toEqual([]);
    expect(await jobsOf(queued.body.id)).toHaveLength(1);
    await runTask(app, queueLostDispatches, {});
    expect(await jobsOf(lost.body.id)).toHaveLength(1);
    await app.prisma.$executeRawUnsafe(`UPDATE orders SET status = 'CANCELLED' WHERE id = ANY($1::text[])`, [young.body.id, claimed.body.id]);
  });
});
