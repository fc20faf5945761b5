import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { verifyWebhookSignature } from "../../src/domains/webhooks/signature.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETRY_DELAYS: "1s,2s,3s,4s,5s" });
let receiver: Receiver;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  receiver = await startReceiver();
  await createOpenScheme(app, "950001");
  ctx = await orderingInvestor(app);
});
afterAll(() => receiver.close());

const subscribe = async (events: string[], options: { token?: string; url?: string } = {}) => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: options.token ?? ctx.token, json: { url: options.url ?? receiver.url(), events } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
};
const unsubscribe = (id: string) => app.http("DELETE", `/api/webhooks/v1/subscriptions/${id}`, { token: ctx.token });

/** Places a lump sum and dispatches it: one order.accepted event. */
const accepted = () => acceptedOrder(app, ctx, lumpsumOrder("950001", { amount: 1000 }));

const deliveriesOf = (subscriptionId: string) => app.prisma.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });
/** Runs a delivery job: it attempts every due delivery. */
const runDeliveries = () => runTask(app, deliverWebhooks, {});
const getDelivery = async (id: string, token = ctx.token) => app.http("GET", `/api/webhooks/v1/deliveries/${id}`, { token });

describe("signed delivery", () => {
  it("POSTs {success, data} with X-MF-Event, X-MF-Delivery and a signature both verifiers accept", async () => {
    const sub = await subscribe(["order.*"]);
    receiver.answer({ status: 204 });
    const before = receiver.received.length;
    const orderId = await accepted();
    const [delivery] = await deliveriesOf(sub.id);
    expect(delivery).toMatchObject({ status: "PENDING", attempts: 0, event: "order.accepted" });
    await runDeliveries();

    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    const raw = request!.body.toString("utf8");
    expect(raw).toBe(JSON.stringify({ success: true, data: { order_id: orderId, status: "ACCEPTED", provider_remark: "ORDER CONFIRMED" } }));
    expect(request).toMatchObject({ method: "POST", url: "/hooks/mf" });
    expect(request!.headers).toMatchObject({ "x-mf-event": "order.accepted", "x-mf-delivery": delivery!.id, "content-type": "application/json", host: `localhost:${receiver.port}` });

    const header = String(request!.headers["x-mf-signature"]);
    expect(verifyWebhookSignature(request!.body, header, sub.secret)).toMatchObject({ valid: true });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(30);
    expect(v1).toBe(createHmac("sha256", sub.secret).update(`${t}.${raw}`).digest("hex"));
    expect(verifyWebhookSignature(request!.body, header, `${sub.secret}x`)).toMatchObject({ valid: false });

    const detail = await getDelivery(delivery!.id);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: delivery!.id, status: "DELIVERED", attempts: 1, last_status_code: 204, event: "order.accepted", payload: raw, delivered_at: expect.any(String) });
    expect(detail.body.data.attempt_log).toEqual([
      { attempt: 1, attempted_at: expect.any(String), status_code: 204, error: null, latency_ms: expect.any(Number), response_body: "" },
    ]);
    await unsubscribe(sub.id);
  });

  it("matches names and wildcards: one delivery per matching subscription, none for the others", async () => {
    const all = await subscribe(["order.*"]);
    const allotted = await subscribe(["order.allotted"]);
    const payments = await subscribe(["payment.*", "investor.registered"]);
    const orderId = await accepted();
    await app.http("GET", `/api/simulation/orders/v1/${orderId}/allot`, { token: ctx.token });
    expect((await deliveriesOf(all.id)).map((d) => d.event)).toEqual(["order.accepted", "order.allotted"]);
    expect((await deliveriesOf(allotted.id)).map((d) => d.event)).toEqual(["order.allotted"]);
    expect(await deliveriesOf(payments.id)).toEqual([]);
    const events = await app.prisma.event.findMany({ where: { resourceId: orderId }, select: { id: true } });
    expect(await app.prisma.webhookDelivery.count({ where: { eventId: { in: events.map((e) => e.id) } } })).toBe(3);
    for (const sub of [all, allotted, payments]) await unsubscribe(sub.id);
  });
});

describe("retries and parking", () => {
  it("retries on the backoff schedule with the same X-MF-Delivery, parks after the fifth failure, and retries on request", async () => {
    const sub = await subscribe(["order.accepted"]);
    receiver.answer({ status: 500, body: "receiver down" });
    const before = receiver.received.length;
    await accepted();
    const [delivery] = await deliveriesOf(sub.id);
    const id = delivery!.id;

    for (let attempt = 1; attempt <= 5; attempt++) {
      const started = Date.now();
      await runDeliveries();
      const row = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ attempts: attempt, lastStatusCode: 500, lastError: "HTTP 500" });
      if (attempt < 5) {
        expect(row.status).toBe("PENDING");
        // The n-th failure waits the n-th delay (1s, 2s, ...), through a graphile-worker job with run_at.
        const wait = row.nextAttemptAt!.getTime() - started;
        expect(wait).toBeGreaterThanOrEqual(attempt * 1000 - 50);
        expect(wait).toBeLessThan(attempt * 1000 + 2000);
        const [job] = await app.prisma.$queryRawUnsafe<Array<{ run_at: Date }>>(`SELECT run_at FROM graphile_worker._private_jobs WHERE key = $1`, `webhooks__deliver:retry:${id}`);
        expect(Math.abs(job!.run_at.getTime() - row.nextAttemptAt!.getTime())).toBeLessThan(5);
        // Not due yet: a job that runs early sends nothing.
        await runDeliveries();
        expect((await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).attempts).toBe(attempt);
        await app.prisma.webhookDelivery.update({ where: { id }, data: { nextAttemptAt: new Date() } });
      } else {
        expect(row).toMatchObject({ status: "PARKED", nextAttemptAt: null });
      }
    }
    const sent = receiver.received.slice(before).filter((r) => r.headers["x-mf-delivery"] === id);
    expect(sent).toHaveLength(5);
    const listed = await app.http("GET", "/api/webhooks/v1/deliveries?status=PARKED", { token: ctx.token });
    expect(listed.body.data.find((d: { id: string }) => d.id === id)).toMatchObject({ status: "PARKED", attempts: 5, last_status_code: 500, event: "order.accepted" });
    expect((await getDelivery(id)).body.data.attempt_log.map((a: { attempt: number; response_body: string }) => [a.attempt, a.response_body])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, "receiver down"]),
    );

    // Manual retry: PENDING at once, attempted by the worker now; it succeeds this time.
    receiver.answer({ status: 200, body: "thanks" });
    const retried = await app.http("POST", `/api/webhooks/v1/deliveries/${id}/retry`, { token: ctx.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ success: true, data: { id, status: "PENDING", attempts: 5 } });
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => (await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).status, { timeout: 10_000 }).toBe("DELIVERED");
    } finally {
      await worker.stop();
    }
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ attempts: 6, lastStatusCode: 200 });
    const again = await app.http("POST", `/api/webhooks/v1/deliveries/${id}/retry`, { token: ctx.token });
    expect([again.status, again.body.error.code]).toEqual([409, "INVALID_STATE"]);
    await unsubscribe(sub.id);
  });

  it("a manual retry that fails parks again at once", async () => {
    const sub = await subscribe(["order.accepted"]);
    receiver.answer({ status: 503 });
    await accepted();
    const [delivery] = await deliveriesOf(sub.id);
    await app.prisma.webhookDelivery.update({ where: { id: delivery!.id }, data: { status: "PARKED", attempts: 5 } });
    await app.http("POST", `/api/webhooks/v1/deliveries/${delivery!.id}/retry`, { token: ctx.token });
    await runDeliveries();
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } })).toMatchObject({ status: "PARKED", attempts: 6, lastStatusCode: 503 });
    await unsubscribe(sub.id);
  });

  it("does not follow redirects, and times out a receiver that hangs after 10 s", async () => {
    const sub = await subscribe(["order.accepted"]);
    const before = receiver.received.length;
    receiver.answer((request) => (request.url === "/elsewhere" ? { status: 200 } : { status: 302, headers: { location: receiver.url("/elsewhere") } }));
    await accepted();
    const [redirected] = await deliveriesOf(sub.id);
    await runDeliveries();
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: redirected!.id } })).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: 302 });
    expect(receiver.received.slice(before).map((r) => r.url)).toEqual(["/hooks/mf"]);

    // Out of the way, so the next job attempts only the delivery that hangs.
    await app.prisma.webhookDelivery.update({ where: { id: redirected!.id }, data: { status: "FAILED" } });
    receiver.answer("hang");
    await accepted();
    const hanging = (await deliveriesOf(sub.id))[1]!;
    const started = Date.now();
    await runDeliveries();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(13_000);
    const row = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: hanging.id } });
    expect(row).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null });
    expect(row.lastError).toMatch(/timeout/i);
    await unsubscribe(sub.id);
  }, 30_000);

  it("ends FAILED when the subscription was deleted before the attempt", async () => {
    const sub = await subscribe(["order.accepted"]);
    receiver.answer({ status: 200 });
    await accepted();
    const [delivery] = await deliveriesOf(sub.id);
    expect((await unsubscribe(sub.id)).status).toBe(200);
    await runDeliveries();
    expect(await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } })).toMatchObject({
      status: "FAILED", attempts: 0, lastError: "the subscription was deleted",
    });
  });
});

describe("the worker delivers on its own", () => {
  it("from the event's commit to the receiver, through a batch job", async () => {
    const sub = await subscribe(["order.accepted"]);
    receiver.answer({ status: 200 });
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      const ids = [await accepted(), await accepted(), await accepted()];
      // Earlier tests' retries may arrive too; these three must.
      const orderIdsReceived = () => receiver.received.filter((r) => r.headers["x-mf-event"] === "order.accepted").map((r) => JSON.parse(r.body.toString()).data.order_id);
      await expect.poll(() => ids.filter((id) => orderIdsReceived().includes(id)), { timeout: 10_000 }).toEqual(ids);
      await expect.poll(async () => (await deliveriesOf(sub.id)).map((d) => d.status), { timeout: 5_000 }).toEqual(["DELIVERED", "DELIVERED", "DELIVERED"]);
    } finally {
      await worker.stop();
    }
    await unsubscribe(sub.id);
  });
});

describe("tenancy", () => {
  it("keeps another distributor's subscriptions and deliveries out of reach (404)", async () => {
    const sub = await subscribe(["order.accepted"]);
    await accepted();
    const [delivery] = await deliveriesOf(sub.id);
    const other = ctx.otherToken;
    expect((await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: other })).status).toBe(404);
    expect((await getDelivery(delivery!.id, other)).status).toBe(404);
    expect((await app.http("POST", `/api/webhooks/v1/deliveries/${delivery!.id}/retry`, { token: other })).status).toBe(404);
    expect((await app.http("GET", "/api/webhooks/v1/deliveries", { token: other })).body).toEqual({ success: true, data: [], next_cursor: null });
    expect((await app.http("GET", "/api/webhooks/v1/subscriptions", { token: other })).body).toEqual({ success: true, data: [] });
    expect((await app.http("GET", "/api/webhooks/v1/subscriptions", { token: ctx.token })).body.data.map((s: { id: string }) => s.id)).toContain(sub.id);
    await unsubscribe(sub.id);
  });
});
