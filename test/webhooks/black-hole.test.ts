import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../src/domains/events/events.repo.js";
import { attemptDueDeliveries, DEFAULT_TUNING, leaseMsFor } from "../../src/domains/webhooks/attempts.js";
import { claimDueDeliveries } from "../../src/domains/webhooks/claims.repo.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

/**
 * Receivers that never answer (they accept the connection, read the request, and stay silent): the batch
 * of a job outlasts a short lease, and one distributor's many subscriptions to them hold deliveries for
 * whole attempt timeouts. Attempts time out after 500 ms here (WEBHOOK_TIMEOUT_MS), and a failed
 * delivery is due again only in an hour, so each delivery must reach a receiver exactly once.
 */
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETRY_DELAYS: "1h", WEBHOOK_TIMEOUT_MS: "500" });
let blackHole: Receiver;
let healthy: Receiver;

beforeAll(async () => {
  blackHole = await startReceiver();
  blackHole.answer("hang");
  healthy = await startReceiver();
});
afterAll(async () => {
  await blackHole.close();
  await healthy.close();
});

type Distributor = Awaited<ReturnType<typeof app.newDistributor>>;

const subscribe = async (who: Distributor, url: string) => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: who.token, json: { url, events: ["order.*"] } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};

/** `count` order.accepted events of the distributor, 50 to a transaction, fanned out as the orders domain's are. */
let orderNo = 0;
async function ordersAccepted(who: Distributor, count: number): Promise<void> {
  for (let done = 0; done < count; done += 50) {
    await app.prisma.$transaction(async (tx) => {
      for (let i = done; i < Math.min(count, done + 50); i++) {
        const orderId = `ord_hole_${++orderNo}`;
        await recordEvent(tx, {
          distributorId: who.distributor_id, resourceType: "order", resourceId: orderId, event: "order.accepted",
          data: { order_id: orderId, status: "ACCEPTED", provider_remark: null },
        });
      }
    });
  }
}

/** How many requests each delivery id brought to the receiver. */
function requestsPerDelivery(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of receiver.received) counts.set(String(r.headers["x-mf-delivery"]), (counts.get(String(r.headers["x-mf-delivery"])) ?? 0) + 1);
  return counts;
}

describe("the claim lease", () => {
  it("outlasts a whole batch: checks, ceil(200 / 32) attempt timeouts, recording", () => {
    expect(leaseMsFor({ ...DEFAULT_TUNING, attemptTimeoutMs: 10_000 })).toBe(90_000);
    expect(leaseMsFor({ ...DEFAULT_TUNING, attemptTimeoutMs: 500 })).toBe(23_500);
  });

  it("never sends a delivery twice when batches outlast their lease: what cannot finish inside it is released unsent", async () => {
    const owner = await app.newDistributor();
    const subscriptions = [await subscribe(owner, blackHole.url("/a")), await subscribe(owner, blackHole.url("/b"))];
    await ordersAccepted(owner, 150);
    const ids = (await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: { in: subscriptions } }, select: { id: true } })).map((d) => d.id);
    expect(ids).toHaveLength(300);

    // Three jobs at once; each claims 200 that 8 lanes of 500 ms attempts would need 12.5 s for, under a 5 s lease.
    const tuning = { batch: 200, parallel: 8, perDistributor: 1000, perSubscription: 1000, attemptTimeoutMs: 500, leaseMs: 5000, recordAllowanceMs: 2000 };
    const started = Date.now();
    const attempted = await Promise.all([1, 2, 3].map(() => attemptDueDeliveries(app.services, tuning)));
    expect(Date.now() - started).toBeGreaterThan(5000);

    expect(attempted.reduce((a, b) => a + b, 0)).toBe(300);
    // At most once each (on a loaded machine an attempt may time out before its request reaches the receiver).
    const counts = requestsPerDelivery(blackHole);
    expect(ids.filter((id) => (counts.get(id) ?? 0) > 1).map((id) => [id, counts.get(id)])).toEqual([]);
    expect(ids.filter((id) => counts.get(id) === 1).length).toBeGreaterThan(250);
    const rows = await app.prisma.webhookDelivery.findMany({ where: { id: { in: ids } } });
    expect(rows.every((r) => r.status === "PENDING" && r.attempts === 1 && r.leaseUntil === null && /timeout after 500 ms/.test(r.lastError ?? ""))).toBe(true);
    expect(await app.prisma.webhookAttempt.count({ where: { deliveryId: { in: ids } } })).toBe(300);
  }, 60_000);
});

describe("fair claims", () => {
  it("a claim takes each distributor's oldest due deliveries in turn, within the in-flight caps", async () => {
    const crowd = await app.newDistributor();
    const holes = [await subscribe(crowd, blackHole.url("/turns/a")), await subscribe(crowd, blackHole.url("/turns/b"))];
    await ordersAccepted(crowd, 150);
    const quiet = [await app.newDistributor(), await app.newDistributor()];
    const quietSubscriptions = [await subscribe(quiet[0]!, healthy.url("/turns/q0")), await subscribe(quiet[1]!, healthy.url("/turns/q1"))];
    for (const who of quiet) await ordersAccepted(who, 1);
    const quietIds = (await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: { in: quietSubscriptions } } })).map((d) => d.id);

    const limits = { batch: 50, perDistributor: 20, perSubscription: 15, leaseMs: 60_000 };
    const claimed = await claimDueDeliveries(app.prisma, limits);
    // The crowd's 300 are older, yet the quiet ones come second and third: each distributor's first, then seconds...
    expect(claimed.slice(1, 3).map((d) => d.id).sort()).toEqual([...quietIds].sort());
    const crowdClaimed = claimed.filter((d) => holes.includes(d.subscription_id));
    expect(crowdClaimed).toHaveLength(20);
    for (const hole of holes) expect(crowdClaimed.filter((d) => d.subscription_id === hole).length).toBeLessThanOrEqual(15);
    // The crowd holds its share now: a second claim takes none of its 280 other due deliveries.
    expect(await claimDueDeliveries(app.prisma, limits)).toEqual([]);

    await app.prisma.webhookDelivery.updateMany({ where: { subscriptionId: { in: [...holes, ...quietSubscriptions] } }, data: { status: "FAILED", leaseUntil: null } });
  }, 60_000);

  it("another distributor's delivery arrives at once while a distributor's many black-hole subscriptions are in flight", async () => {
    const crowd = await app.newDistributor();
    const holes = [];
    for (let i = 0; i < 3; i++) holes.push(await subscribe(crowd, blackHole.url(`/crowd/${i}`)));
    const quiet = await app.newDistributor();
    const quietSubscription = await subscribe(quiet, healthy.url("/quiet"));
    healthy.answer({ status: 200 });
    const alreadyReceived = blackHole.received.length;

    await ordersAccepted(crowd, 300);
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      // The crowd's deliveries are in flight (every black-hole request waits its 500 ms)...
      await blackHole.waitFor(alreadyReceived + 50, 15_000);
      const held = await app.prisma.webhookDelivery.count({ where: { subscriptionId: { in: holes }, status: "PENDING", leaseUntil: { gt: new Date() } } });
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(DEFAULT_TUNING.perDistributor);

      // ...and the quiet distributor's event reaches its receiver long before the crowd's 900 could drain
      // (at most 400 in flight, 500 ms each: at least three rounds).
      const sent = Date.now();
      await ordersAccepted(quiet, 1);
      const [arrived] = await healthy.waitFor(1, 5_000);
      expect(arrived!.url).toBe("/quiet");
      expect(arrived!.at - sent).toBeLessThan(1000);
      await expect
        .poll(async () => (await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: quietSubscription } })).map((d) => d.status), { timeout: 5_000 })
        .toEqual(["DELIVERED"]);

      // The crowd's 900 deliveries are all attempted in the end, each once (a request the connection pool of one
      // host (64 sockets) queued past its timeout never reaches the receiver, and counts as that attempt).
      const crowdIds = (await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: { in: holes } }, select: { id: true } })).map((d) => d.id);
      expect(crowdIds).toHaveLength(900);
      await expect
        .poll(() => app.prisma.webhookDelivery.count({ where: { id: { in: crowdIds }, attempts: 1, leaseUntil: null } }), { timeout: 30_000, interval: 250 })
        .toBe(900);
      const counts = requestsPerDelivery(blackHole);
      expect(crowdIds.filter((id) => (counts.get(id) ?? 0) > 1)).toEqual([]);
      expect(await app.prisma.webhookAttempt.count({ where: { deliveryId: { in: crowdIds } } })).toBe(900);
    } finally {
      await worker.stop();
    }
  }, 90_000);
});
