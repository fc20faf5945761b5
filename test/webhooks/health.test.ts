import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../src/domains/events/events.repo.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { sweepWebhookDeliveries } from "../../src/domains/webhooks/jobs/sweep.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETRY_DELAYS: "1h", WEBHOOK_MAX_SUBSCRIPTIONS: "3" });
let failing: Receiver;
let healthy: Receiver;

beforeAll(async () => {
  failing = await startReceiver();
  healthy = await startReceiver();
});
afterAll(async () => {
  await failing.close();
  await healthy.close();
});

type Distributor = Awaited<ReturnType<typeof app.newDistributor>>;

const subscribe = (who: Distributor, url: string, events: string[]) =>
  app.http("POST", "/api/webhooks/v1/subscriptions", { token: who.token, json: { url, events } });
const enable = (who: Distributor, id: string) => app.http("POST", `/api/webhooks/v1/subscriptions/${id}/enable`, { token: who.token });
const subscriptionRow = (id: string) => app.prisma.webhookSubscription.findUniqueOrThrow({ where: { id } });
const deliveriesOf = (subscriptionId: string) => app.prisma.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });
const runDeliveries = () => runTask(app, deliverWebhooks, {});
const runSweep = () => runTask(app, sweepWebhookDeliveries, {});

/** An order.accepted event of the distributor, recorded as the orders domain does (the fan-out runs in its transaction). */
let orderNo = 0;
const orderAccepted = (who: Distributor) => {
  const orderId = `ord_health_${++orderNo}`;
  return app.prisma.$transaction((tx) =>
    recordEvent(tx, {
      distributorId: who.distributor_id, resourceType: "order", resourceId: orderId, event: "order.accepted",
      data: { order_id: orderId, status: "ACCEPTED", provider_remark: null },
    }),
  );
};

describe("endpoint health", () => {
  it("a subscription failing for 3 days is DISABLED, its pending deliveries parked, and the notice goes to the other ACTIVE ones only", async () => {
    const owner = await app.newDistributor();
    const other = await app.newDistributor();
    const broken = (await subscribe(owner, failing.url(), ["order.*"])).body.data;
    // Lists no webhook event: the notice reaches it anyway.
    const sibling = (await subscribe(owner, healthy.url("/sibling"), ["payment.captured"])).body.data;
    const stranger = (await subscribe(other, healthy.url("/stranger"), ["order.*"])).body.data;
    failing.answer({ status: 500, body: "down" });

    await orderAccepted(owner);
    const started = Date.now();
    await runDeliveries();
    const clock = (await subscriptionRow(broken.id)).failingSince!;
    expect(clock.getTime()).toBeGreaterThanOrEqual(started - 5);
    expect(clock.getTime()).toBeLessThanOrEqual(Date.now());
    // A second failure keeps the clock where the first one started it.
    await orderAccepted(owner);
    await runDeliveries();
    expect((await subscriptionRow(broken.id)).failingSince).toEqual(clock);

    // Not 3 days yet: the sweep leaves it ACTIVE.
    await runSweep();
    expect((await subscriptionRow(broken.id)).status).toBe("ACTIVE");

    // Three days (and a minute) of failures, as the clock would show them; one more delivery waits.
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000 - 60_000);
    await app.prisma.webhookSubscription.update({ where: { id: broken.id }, data: { failingSince: threeDaysAgo } });
    await orderAccepted(owner);
    const waiting = (await deliveriesOf(broken.id)).find((d) => d.status === "PENDING" && d.attempts === 0)!;
    await runSweep();

    const row = await subscriptionRow(broken.id);
    expect(row).toMatchObject({ status: "DISABLED", failingSince: threeDaysAgo, deletedAt: null });
    expect(Date.now() - row.disabledAt!.getTime()).toBeLessThan(10_000);
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: "PARKED", attempts: 0, nextAttemptAt: null, leaseUntil: null, lastError: "the subscription is disabled: enable it, then retry",
    });
    const [event] = await app.prisma.event.findMany({ where: { resourceId: broken.id } });
    const data = {
      subscription_id: broken.id, url: failing.url(), status: "DISABLED",
      failing_since: threeDaysAgo.toISOString(), disabled_at: row.disabledAt!.toISOString(),
    };
    expect(event).toMatchObject({ distributorId: owner.distributor_id, resourceType: "webhook", event: "webhook.subscription_disabled", data });
    const notices = await app.prisma.webhookDelivery.findMany({ where: { eventId: event!.id } });
    expect(notices.map((d) => d.subscriptionId)).toEqual([sibling.id]);
    expect(await deliveriesOf(stranger.id)).toEqual([]);

    healthy.answer({ status: 200 });
    const before = healthy.received.length;
    await runDeliveries();
    const [notice] = (await healthy.waitFor(before + 1)).slice(before);
    expect(notice!.url).toBe("/sibling");
    expect(notice!.headers["x-mf-event"]).toBe("webhook.subscription_disabled");
    expect(notice!.body.toString()).toBe(JSON.stringify({ success: true, data }));

    // The API shows it; the sweep does not disable it twice; no delivery is created for it.
    const listed = await app.http("GET", "/api/webhooks/v1/subscriptions", { token: owner.token });
    expect(listed.body.data.find((s: { id: string }) => s.id === broken.id)).toEqual({
      id: broken.id, url: failing.url(), events: ["order.*"], status: "DISABLED",
      failing_since: threeDaysAgo.toISOString(), disabled_at: row.disabledAt!.toISOString(), created_at: broken.created_at,
    });
    await runSweep();
    expect(await app.prisma.event.count({ where: { resourceId: broken.id } })).toBe(1);
    const count = (await deliveriesOf(broken.id)).length;
    await orderAccepted(owner);
    expect(await deliveriesOf(broken.id)).toHaveLength(count);

    // A retried delivery of a DISABLED subscription parks again, sending nothing.
    const failedBefore = failing.received.length;
    expect((await app.http("POST", `/api/webhooks/v1/deliveries/${waiting.id}/retry`, { token: owner.token })).status).toBe(200);
    await runDeliveries();
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ status: "PARKED", attempts: 0 });
    expect(failing.received.length).toBe(failedBefore);

    // Enabled: ACTIVE, the clock reset; again: the same answer; a retry now delivers, and deliveries are created again.
    const enabled = await enable(owner, broken.id);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ success: true, data: { ...listed.body.data.find((s: { id: string }) => s.id === broken.id), status: "ACTIVE", failing_since: null, disabled_at: null } });
    expect(await enable(owner, broken.id)).toMatchObject({ status: 200, body: enabled.body });
    expect(await subscriptionRow(broken.id)).toMatchObject({ status: "ACTIVE", failingSince: null, disabledAt: null });
    failing.answer({ status: 200 });
    await app.http("POST", `/api/webhooks/v1/deliveries/${waiting.id}/retry`, { token: owner.token });
    await runDeliveries();
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ status: "DELIVERED", attempts: 1 });
    await orderAccepted(owner);
    expect(await deliveriesOf(broken.id)).toHaveLength(count + 1);
  });

  it("a successful attempt stops the clock", async () => {
    const owner = await app.newDistributor();
    const sub = (await subscribe(owner, failing.url("/flaky"), ["order.accepted"])).body.data;
    failing.answer({ status: 503 });
    await orderAccepted(owner);
    await runDeliveries();
    expect((await subscriptionRow(sub.id)).failingSince).not.toBeNull();
    failing.answer({ status: 204 });
    await orderAccepted(owner);
    await runDeliveries();
    expect((await subscriptionRow(sub.id)).failingSince).toBeNull();
  });

  it("enable answers 404 for another distributor's, a deleted or an unknown subscription", async () => {
    const owner = await app.newDistributor();
    const other = await app.newDistributor();
    const sub = (await subscribe(owner, healthy.url(), ["order.*"])).body.data;
    for (const [who, id] of [[other, sub.id], [owner, "whs_unknown"]] as const) {
      const res = await enable(who, id);
      expect([res.status, res.body.error.code]).toEqual([404, "NOT_FOUND"]);
    }
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: owner.token });
    expect((await enable(owner, sub.id)).status).toBe(404);
    expect((await app.http("POST", `/api/webhooks/v1/subscriptions/${sub.id}/enable`)).status).toBe(401);
  });
});

describe("the subscription cap (WEBHOOK_MAX_SUBSCRIPTIONS=3 here)", () => {
  it("counts ACTIVE and DISABLED ones, holds under concurrent creations, and frees a place on delete", async () => {
    const owner = await app.newDistributor();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => subscribe(owner, healthy.url(`/cap/${i}`), ["order.*"])));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body).toEqual({
      success: false,
      error: { code: "CONFLICT", message: "You hold 3 webhook subscriptions (ACTIVE or DISABLED), the most allowed (3): delete one first" },
      request_id: refused.headers.get("x-request-id"),
    });
    expect(await app.prisma.webhookSubscription.count({ where: { distributorId: owner.distributor_id } })).toBe(3);

    const [first, second] = answers.filter((r) => r.status === 201).map((r) => r.body.data.id as string);
    await app.prisma.webhookSubscription.update({ where: { id: first! }, data: { status: "DISABLED", disabledAt: new Date(), failingSince: new Date() } });
    expect((await subscribe(owner, healthy.url("/cap/more"), ["order.*"])).status).toBe(409);
    // Another distributor has its own places.
    expect((await subscribe(await app.newDistributor(), healthy.url("/cap/other"), ["order.*"])).status).toBe(201);

    expect((await app.http("DELETE", `/api/webhooks/v1/subscriptions/${second}`, { token: owner.token })).status).toBe(200);
    expect((await subscribe(owner, healthy.url("/cap/again"), ["order.*"])).status).toBe(201);
    // A DISABLED one can be deleted too.
    const deleted = await app.http("DELETE", `/api/webhooks/v1/subscriptions/${first}`, { token: owner.token });
    expect([deleted.status, deleted.body.data.status]).toEqual([200, "DELETED"]);
  });
});
