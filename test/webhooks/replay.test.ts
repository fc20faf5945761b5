import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { newId } from "../../src/platform/lib/ids.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let receiver: Receiver;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  receiver = await startReceiver();
  await createOpenScheme(app, "950201");
  ctx = await orderingInvestor(app);
});
afterAll(() => receiver.close());

const subscribe = async (events: string[], token = ctx.token) => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url(), events } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
};
const unsubscribe = (id: string) => app.http("DELETE", `/api/webhooks/v1/subscriptions/${id}`, { token: ctx.token });
const replay = (json: unknown, options: { token?: string; key?: string } = {}) =>
  app.http("POST", "/api/webhooks/v1/deliveries/replay", { token: options.token ?? ctx.token, json, headers: options.key ? { "idempotency-key": options.key } : {} });
const deliveriesOf = (subscriptionId: string) => app.prisma.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });
const iso = (ms: number) => new Date(ms).toISOString();
const around = () => ({ since: iso(Date.now() - 3_600_000), until: iso(Date.now() + 60_000) });

/** Three order.accepted deliveries to `sub`, left (by hand, as five failures would) PARKED, FAILED and DELIVERED. */
async function threeDeliveries(subscriptionId: string) {
  for (let i = 0; i < 3; i++) await acceptedOrder(app, ctx, lumpsumOrder("950201", { amount: 1000 }));
  const [parked, failed, delivered] = await deliveriesOf(subscriptionId);
  await app.prisma.webhookDelivery.update({ where: { id: parked!.id }, data: { status: "PARKED", attempts: 5, lastStatusCode: 500, nextAttemptAt: null } });
  await app.prisma.webhookDelivery.update({ where: { id: failed!.id }, data: { status: "FAILED", attempts: 1, lastError: "refused: no", nextAttemptAt: null } });
  await app.prisma.webhookDelivery.update({ where: { id: delivered!.id }, data: { status: "DELIVERED", attempts: 1, deliveredAt: new Date(), nextAttemptAt: null } });
  return { parked: parked!.id, failed: failed!.id, delivered: delivered!.id };
}

describe("POST /api/webhooks/v1/deliveries/replay", () => {
  it("queues the FAILED and PARKED deliveries of the range for an attempt now; a repeat queues nothing new; the worker delivers them", async () => {
    const sub = await subscribe(["order.accepted"]);
    const ids = await threeDeliveries(sub.id);
    const started = Date.now();
    const res = await replay(around());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { replayed: 2 } });
    for (const id of [ids.parked, ids.failed]) {
      const row = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: "PENDING", leaseUntil: null });
      expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(started - 50);
      expect(row.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.delivered } })).status).toBe("DELIVERED");
    const jobs = await app.prisma.$queryRawUnsafe<Array<{ key: string }>>(`SELECT key FROM graphile_worker._private_jobs WHERE key = 'webhooks__deliver:replay'`);
    expect(jobs).toHaveLength(1);

    expect((await replay(around())).body).toEqual({ success: true, data: { replayed: 0 } });

    receiver.answer({ status: 200 });
    const before = receiver.received.length;
    await runTask(app, deliverWebhooks, {});
    expect(receiver.received.slice(before).map((r) => r.headers["x-mf-delivery"]).sort()).toEqual([ids.parked, ids.failed].sort());
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.parked } })).toMatchObject({ status: "DELIVERED", attempts: 6 });
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.failed } })).toMatchObject({ status: "DELIVERED", attempts: 2 });
    await unsubscribe(sub.id);
  });

  it("filters by status, event and range: [since, until), each bound exact", async () => {
    const sub = await subscribe(["order.*"]);
    const ids = await threeDeliveries(sub.id);
    const parked = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.parked } });
    const at = parked.createdAt.getTime();
    // until is exclusive, since inclusive.
    expect((await replay({ since: iso(at - 60_000), until: iso(at), status: "PARKED" })).body.data).toEqual({ replayed: 0 });
    expect((await replay({ since: iso(at + 1), until: iso(at + 60_000), status: "PARKED" })).body.data).toEqual({ replayed: 0 });
    expect((await replay({ ...around(), event: "order.allotted" })).body.data).toEqual({ replayed: 0 });
    expect((await replay({ ...around(), event: "payment.*" })).body.data).toEqual({ replayed: 0 });
    expect((await replay({ since: iso(at), until: iso(at + 1), status: "PARKED", event: "order.*" })).body.data).toEqual({ replayed: 1 });
    expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.parked } })).status).toBe("PENDING");
    expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.failed } })).status).toBe("FAILED");
    expect((await replay({ ...around(), status: "FAILED", event: "order.accepted" })).body.data).toEqual({ replayed: 1 });
    await unsubscribe(sub.id);
  });

  it("skips deleted subscriptions' deliveries and never touches another distributor's", async () => {
    const sub = await subscribe(["order.accepted"]);
    const ids = await threeDeliveries(sub.id);
    const other = await app.newDistributor();
    expect((await replay(around(), { token: other.token })).body).toEqual({ success: true, data: { replayed: 0 } });
    expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.parked } })).status).toBe("PARKED");
    await unsubscribe(sub.id);
    expect((await replay(around())).body.data).toEqual({ replayed: 0 });
    expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: ids.failed } })).status).toBe("FAILED");
  });

  it("answers a repeated Idempotency-Key with the first count", async () => {
    const sub = await subscribe(["order.accepted"]);
    await threeDeliveries(sub.id);
    const body = around();
    expect((await replay(body, { key: "replay-1" })).body.data).toEqual({ replayed: 2 });
    expect((await replay(body, { key: "replay-1" })).body.data).toEqual({ replayed: 2 });
    expect((await replay(body, { key: "replay-2" })).body.data).toEqual({ replayed: 0 });
    expect((await replay({ ...body, status: "FAILED" }, { key: "replay-1" })).status).toBe(409);
    await unsubscribe(sub.id);
  });

  it("refuses more than 1,000 matching deliveries (400 on until), queuing none", async () => {
    const sub = await subscribe(["order.accepted"]);
    const { distributorId } = await app.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } });
    const now = Date.now();
    await app.prisma.webhookDelivery.createMany({
      data: Array.from({ length: 1001 }, (_, i) => ({
        id: newId("whd", now + i), distributorId, subscriptionId: sub.id, eventId: newId("evt"), event: "order.accepted", payload: "{}", status: "PARKED", attempts: 5,
      })),
    });
    const res = await replay(around());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "until", message: "more than 1000 deliveries match: narrow the range (or filter by status or event) and replay it in parts", reason: "too_big" }],
    });
    expect(await app.prisma.webhookDelivery.count({ where: { subscriptionId: sub.id, status: "PENDING" } })).toBe(0);
    const keep = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id }, orderBy: { id: "asc" }, take: 1000, select: { id: true } });
    await app.prisma.webhookDelivery.deleteMany({ where: { subscriptionId: sub.id, id: { notIn: keep.map((k) => k.id) } } });
    expect((await replay(around())).body.data).toEqual({ replayed: 1000 });
    await app.prisma.webhookDelivery.updateMany({ where: { subscriptionId: sub.id }, data: { status: "DELIVERED" } });
    await unsubscribe(sub.id);
  });

  it("400 with field paths for a bad range, state, event or time, and unknown fields", async () => {
    const since = "2026-11-20T00:00:00+05:30";
    for (const [json, path, reason] of [
      [{ since, until: since }, "until", "invalid_value"],
      [{ since, until: "2026-11-19T00:00:00+05:30" }, "until", "invalid_value"],
      [{ since, until: "2026-11-27T00:00:01+05:30" }, "until", "too_big"],
      [{ since, until: "2026-11-21T00:00:00+05:30", status: "DELIVERED" }, "status", "invalid_value"],
      [{ since, until: "2026-11-21T00:00:00+05:30", event: "order.created" }, "event", "invalid_value"],
      [{ since, until: "2026-11-21T00:00:00+05:30", event: "webhook.test" }, "event", "invalid_value"],
      [{ since: "2026-11-20", until: "2026-11-21T00:00:00+05:30" }, "since", "invalid_format"],
      [{ since: "2026-11-20T00:00:00", until: "2026-11-21T00:00:00+05:30" }, "since", "invalid_format"],
      [{ until: "2026-11-21T00:00:00+05:30" }, "since", "required"],
      [{ since, until: "2026-11-21T00:00:00+05:30", force: true }, "force", "unknown_field"],
    ] as const) {
      const res = await replay(json);
      expect([JSON.stringify(json), res.status]).toEqual([JSON.stringify(json), 400]);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.map((d: { path: string; reason: string }) => [d.path, d.reason])).toEqual([[path, reason]]);
    }
    expect((await replay({ since, until: "2026-11-27T00:00:00+05:30" })).body).toEqual({ success: true, data: { replayed: 0 } });
  });
});
