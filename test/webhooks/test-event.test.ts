import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "mf-distribution-service/webhooks";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let receiver: Receiver;
let token = "";
let otherToken = "";

beforeAll(async () => {
  receiver = await startReceiver();
  token = (await app.newDistributor()).token;
  otherToken = (await app.newDistributor()).token;
});
afterAll(() => receiver.close());

const subscribe = async () => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url(), events: ["order.*"] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
};
const sendTest = (id: string, as = token) => app.http("POST", `/api/webhooks/v1/subscriptions/${id}/test`, { token: as });
const deliveryRow = (id: string) => app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
const payloadOf = (subscriptionId: string) =>
  JSON.stringify({ success: true, data: { subscription_id: subscriptionId, message: "A test event, sent on request; it describes no change." } });

describe("POST /api/webhooks/v1/subscriptions/{id}/test", () => {
  it("sends webhook.test now, signed like every delivery, and answers the attempt; the delivery and attempt are recorded", async () => {
    const sub = await subscribe();
    receiver.answer({ status: 202, body: "got it" });
    const before = receiver.received.length;
    const res = await sendTest(sub.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { delivery_id: expect.stringMatching(/^whd_/), delivered: true, status_code: 202, latency_ms: expect.any(Number), error: null },
    });
    const { delivery_id: deliveryId, latency_ms: latency } = res.body.data;
    expect(latency).toBeGreaterThanOrEqual(0);
    expect(latency).toBeLessThan(10_000);

    // Sent before the answer: already there.
    const sent = receiver.received.slice(before);
    expect(sent).toHaveLength(1);
    const request = sent[0]!;
    expect(request.body.toString("utf8")).toBe(payloadOf(sub.id));
    expect(request).toMatchObject({ method: "POST", url: "/hooks/mf" });
    expect(request.headers).toMatchObject({ "x-mf-event": "webhook.test", "x-mf-delivery": deliveryId, "content-type": "application/json" });
    expect(String(request.headers["x-mf-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(request.body, String(request.headers["x-mf-signature"]), sub.secret)).toMatchObject({ valid: true });

    expect(await deliveryRow(deliveryId)).toMatchObject({
      subscriptionId: sub.id, event: "webhook.test", status: "DELIVERED", attempts: 1, lastStatusCode: 202, lastError: null, payload: payloadOf(sub.id),
      eventId: expect.stringMatching(/^evt_/), deliveredAt: expect.any(Date),
    });
    // Not an event of the log: nothing recorded in events.
    expect(await app.prisma.event.count({ where: { resourceId: sub.id } })).toBe(0);
    const detail = await app.http("GET", `/api/webhooks/v1/deliveries/${deliveryId}`, { token });
    expect(detail.body.data).toMatchObject({ id: deliveryId, event: "webhook.test", status: "DELIVERED", attempts: 1, next_attempt_at: null });
    expect(detail.body.data.attempt_log).toEqual([
      { attempt: 1, attempted_at: expect.any(String), status_code: 202, error: null, latency_ms: latency, response_body: "got it" },
    ]);
  });

  it("a failing receiver: delivered false with its status and error; FAILED and never retried nor replayed", async () => {
    const sub = await subscribe();
    receiver.answer({ status: 500, body: "down" });
    const res = await sendTest(sub.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivery_id: expect.any(String), delivered: false, status_code: 500, latency_ms: expect.any(Number), error: "HTTP 500" });
    const id = res.body.data.delivery_id;
    expect(await deliveryRow(id)).toMatchObject({ status: "FAILED", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500", nextAttemptAt: null });

    const before = receiver.received.length;
    await runTask(app, deliverWebhooks, {});
    const replay = await app.http("POST", "/api/webhooks/v1/deliveries/replay", {
      token,
      json: { since: new Date(Date.now() - 60_000).toISOString(), until: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(replay.body).toEqual({ success: true, data: { replayed: 0 } });
    expect(receiver.received.length).toBe(before);
    expect((await deliveryRow(id)).status).toBe("FAILED");
  });

  it("a target refused at send time (its port): delivered false, no request, the refusal recorded", async () => {
    const sub = await subscribe();
    await app.prisma.webhookSubscription.update({ where: { id: sub.id }, data: { url: `https://localhost:25/hooks` } });
    const before = receiver.received.length;
    const res = await sendTest(sub.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      delivery_id: expect.any(String), delivered: false, status_code: null, latency_ms: 0,
      error: "refused: url port 25 is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure",
    });
    expect(receiver.received.length).toBe(before);
    expect(await deliveryRow(res.body.data.delivery_id)).toMatchObject({ status: "FAILED", attempts: 1, lastStatusCode: null });
  });

  it("at most 5 per subscription per minute: the sixth is 429 RATE_LIMITED with Retry-After; another subscription is not held back", async () => {
    const sub = await subscribe();
    receiver.answer({ status: 200 });
    for (let i = 0; i < 5; i++) expect((await sendTest(sub.id)).status).toBe(200);
    const before = receiver.received.length;
    const limited = await sendTest(sub.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      success: false,
      error: { code: "RATE_LIMITED", message: expect.stringMatching(/^At most 5 test events per subscription per minute; retry after \d+ s$/) },
      request_id: expect.any(String),
    });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(receiver.received.length).toBe(before);
    expect(await app.prisma.webhookDelivery.count({ where: { subscriptionId: sub.id } })).toBe(5);
    expect((await sendTest((await subscribe()).id)).status).toBe(200);
  });

  it("counts tests sent at once under the subscription's lock: of 8 at once, 5 are sent and 3 are 429", async () => {
    const sub = await subscribe();
    receiver.answer({ status: 200 });
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => sendTest(sub.id)))).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await app.prisma.webhookDelivery.count({ where: { subscriptionId: sub.id } })).toBe(5);
  });

  it("404 for another distributor's subscription, a deleted one and an unknown id; nothing sent or recorded", async () => {
    const sub = await subscribe();
    const before = receiver.received.length;
    const foreign = await sendTest(sub.id, otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual({ code: "NOT_FOUND", message: "Webhook subscription not found" });
    expect((await sendTest("whs_nope")).status).toBe(404);
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token });
    expect((await sendTest(sub.id)).status).toBe(404);
    expect(receiver.received.length).toBe(before);
    expect(await app.prisma.webhookDelivery.count({ where: { subscriptionId: sub.id } })).toBe(0);
  });
});
