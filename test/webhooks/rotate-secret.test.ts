import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The verifier receivers use, through the package's own export.
import { verifyWebhookSignature } from "mf-distribution-service/webhooks";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { sweepWebhookDeliveries } from "../../src/domains/webhooks/jobs/sweep.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startReceiver, type Receiver, type Received } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let receiver: Receiver;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  receiver = await startReceiver();
  await createOpenScheme(app, "950101");
  ctx = await orderingInvestor(app);
});
afterAll(() => receiver.close());

const HOUR_MS = 3_600_000;
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

const subscribe = async () => {
  const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: ctx.token, json: { url: receiver.url(), events: ["order.accepted"] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string; url: string; events: string[]; created_at: string };
};
const rotate = (id: string, json: unknown, options: { token?: string; key?: string } = {}) =>
  app.http("POST", `/api/webhooks/v1/subscriptions/${id}/rotate-secret`, {
    token: options.token ?? ctx.token,
    json,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
const row = (id: string) => app.prisma.webhookSubscription.findUniqueOrThrow({ where: { id } });

/** One real delivery to `subscriptionId` (an order.accepted fanned out and attempted by the delivery job): the request the receiver got. */
async function oneDelivery(subscriptionId: string): Promise<Received> {
  receiver.answer({ status: 200 });
  const before = receiver.received.length;
  await acceptedOrder(app, ctx, lumpsumOrder("950101", { amount: 1000 }));
  await runTask(app, deliverWebhooks, {});
  const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "desc" }, take: 1 });
  expect(delivery).toMatchObject({ status: "DELIVERED" });
  const received = receiver.received.slice(before).filter((r) => r.headers["x-mf-delivery"] === delivery!.id);
  expect(received).toHaveLength(1);
  return received[0]!;
}
const signatureOf = (request: Received) => String(request.headers["x-mf-signature"]);
const verdict = (request: Received, secret: string) => verifyWebhookSignature(request.body, signatureOf(request), secret);

describe("POST /api/webhooks/v1/subscriptions/{id}/rotate-secret", () => {
  it("answers the new secret once; both secrets sign every delivery until the overlap ends, then only the new one", async () => {
    const sub = await subscribe();
    const started = Date.now();
    const res = await rotate(sub.id, { expire_previous_in_hours: 24 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { id: sub.id, url: sub.url, events: ["order.accepted"], status: "ACTIVE", failing_since: null, disabled_at: null, created_at: sub.created_at, secret: expect.stringMatching(SECRET), previous_secret_expires_at: expect.any(String) },
    });
    const { secret, previous_secret_expires_at: expiresAt } = res.body.data;
    expect(secret).not.toBe(sub.secret);
    expect(Date.parse(expiresAt) - started).toBeGreaterThanOrEqual(24 * HOUR_MS - 50);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(24 * HOUR_MS);

    // Both stored encrypted; neither in the clear, nor in the logs.
    const stored = await row(sub.id);
    expect(app.services.cipher.decrypt(stored.secretEncrypted)).toBe(secret);
    expect(app.services.cipher.decrypt(stored.previousSecretEncrypted!)).toBe(sub.secret);
    expect(stored.previousSecretExpiresAt!.toISOString()).toBe(expiresAt);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
    expect(JSON.stringify(stored)).not.toContain(sub.secret.slice(6));
    expect(app.logs.join("\n")).not.toContain(secret);
    // Never shown again: the list has no secret.
    expect((await app.http("GET", "/api/webhooks/v1/subscriptions", { token: ctx.token })).text).not.toContain(secret);

    // During the overlap: t=<ts>,v1=<new>,v1=<old>; a receiver with either secret accepts it.
    const during = await oneDelivery(sub.id);
    expect(signatureOf(during)).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verdict(during, secret)).toMatchObject({ valid: true });
    expect(verdict(during, sub.secret)).toMatchObject({ valid: true });
    expect(verdict(during, "whsec_neither")).toEqual({ valid: false, reason: "mismatch" });
    const [, t, first, second] = /^t=(\d+),v1=(\w+),v1=(\w+)$/.exec(signatureOf(during))!;
    expect(verifyWebhookSignature(during.body, `t=${t},v1=${first}`, secret)).toMatchObject({ valid: true });
    expect(verifyWebhookSignature(during.body, `t=${t},v1=${second}`, sub.secret)).toMatchObject({ valid: true });

    // The overlap ends: one signature, the new secret's; the old one no longer verifies.
    await app.prisma.webhookSubscription.update({ where: { id: sub.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const after = await oneDelivery(sub.id);
    expect(signatureOf(after)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verdict(after, secret)).toMatchObject({ valid: true });
    expect(verdict(after, sub.secret)).toEqual({ valid: false, reason: "mismatch" });
    // The sweep removes the expired secret.
    await runTask(app, sweepWebhookDeliveries, {});
    expect(await row(sub.id)).toMatchObject({ previousSecretEncrypted: null, previousSecretExpiresAt: null });
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: ctx.token });
  });

  it("with 0 hours replaces the secret at once: one signature, the new secret's", async () => {
    const sub = await subscribe();
    const res = await rotate(sub.id, { expire_previous_in_hours: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ secret: expect.stringMatching(SECRET), previous_secret_expires_at: null });
    expect(await row(sub.id)).toMatchObject({ previousSecretEncrypted: null, previousSecretExpiresAt: null });
    const delivery = await oneDelivery(sub.id);
    expect(signatureOf(delivery)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verdict(delivery, res.body.data.secret)).toMatchObject({ valid: true });
    expect(verdict(delivery, sub.secret)).toEqual({ valid: false, reason: "mismatch" });
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: ctx.token });
  });

  it("rotating again during an overlap keeps two signatures: the newest secret and the one it replaced", async () => {
    const sub = await subscribe();
    const second = (await rotate(sub.id, { expire_previous_in_hours: 72 })).body.data.secret as string;
    const third = await rotate(sub.id, { expire_previous_in_hours: 1 });
    expect(third.status).toBe(200);
    const stored = await row(sub.id);
    expect(app.services.cipher.decrypt(stored.secretEncrypted)).toBe(third.body.data.secret);
    expect(app.services.cipher.decrypt(stored.previousSecretEncrypted!)).toBe(second);
    expect(stored.previousSecretExpiresAt!.toISOString()).toBe(third.body.data.previous_secret_expires_at);
    const delivery = await oneDelivery(sub.id);
    expect(signatureOf(delivery)).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verdict(delivery, third.body.data.secret)).toMatchObject({ valid: true });
    expect(verdict(delivery, second)).toMatchObject({ valid: true });
    expect(verdict(delivery, sub.secret)).toEqual({ valid: false, reason: "mismatch" });
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: ctx.token });
  });

  it("two rotations at once: one replaces the other's new secret; the original stops signing", async () => {
    const sub = await subscribe();
    const [a, b] = await Promise.all([rotate(sub.id, { expire_previous_in_hours: 24 }), rotate(sub.id, { expire_previous_in_hours: 24 })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const stored = await row(sub.id);
    const current = app.services.cipher.decrypt(stored.secretEncrypted);
    const previous = app.services.cipher.decrypt(stored.previousSecretEncrypted!);
    expect([current, previous].sort()).toEqual([a.body.data.secret, b.body.data.secret].sort());
    const delivery = await oneDelivery(sub.id);
    expect(verdict(delivery, current)).toMatchObject({ valid: true });
    expect(verdict(delivery, previous)).toMatchObject({ valid: true });
    expect(verdict(delivery, sub.secret)).toEqual({ valid: false, reason: "mismatch" });
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: ctx.token });
  });

  it("a repeated Idempotency-Key shows the same secret while it is current, 409 after a later rotation, 409 for another body", async () => {
    const sub = await subscribe();
    const first = await rotate(sub.id, { expire_previous_in_hours: 2 }, { key: "rot-1" });
    const again = await rotate(sub.id, { expire_previous_in_hours: 2 }, { key: "rot-1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(app.services.cipher.decrypt((await row(sub.id)).previousSecretEncrypted!)).toBe(sub.secret);

    const other = await rotate(sub.id, { expire_previous_in_hours: 3 }, { key: "rot-1" });
    expect([other.status, other.body.error.code]).toEqual([409, "CONFLICT"]);

    await rotate(sub.id, { expire_previous_in_hours: 0 }, { key: "rot-2" });
    const stale = await rotate(sub.id, { expire_previous_in_hours: 2 }, { key: "rot-1" });
    expect([stale.status, stale.body.error.code]).toEqual([409, "CONFLICT"]);
    expect(stale.text).not.toContain(first.body.data.secret);

    // The same key on another subscription is another request.
    const sub2 = await subscribe();
    const elsewhere = await rotate(sub2.id, { expire_previous_in_hours: 2 }, { key: "rot-1" });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data.id).toBe(sub2.id);
    for (const id of [sub.id, sub2.id]) await app.http("DELETE", `/api/webhooks/v1/subscriptions/${id}`, { token: ctx.token });
  });

  it("404 for another distributor's subscription, a deleted one and an unknown id; nothing changes", async () => {
    const sub = await subscribe();
    const before = await row(sub.id);
    const foreign = await rotate(sub.id, { expire_previous_in_hours: 1 }, { token: ctx.otherToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Webhook subscription not found" }, request_id: expect.any(String) });
    expect(await row(sub.id)).toEqual(before);
    expect((await rotate("whs_unknown", { expire_previous_in_hours: 1 })).status).toBe(404);
    await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token: ctx.token });
    expect((await rotate(sub.id, { expire_previous_in_hours: 1 })).status).toBe(404);
  });

  it("400 with the field path for hours outside 0-72, not whole, missing or of another type, and unknown fields", async () => {
    const sub = await subscribe();
    const before = await row(sub.id);
    for (const [json, reason] of [
      [{ expire_previous_in_hours: 73 }, "too_big"],
      [{ expire_previous_in_hours: -1 }, "too_small"],
      [{ expire_previous_in_hours: 1.5 }, "invalid_type"],
      [{ expire_previous_in_hours: "24" }, "invalid_type"],
      [{}, "required"],
    ] as const) {
      const res = await rotate(sub.id, json);
      expect([JSON.stringify(json), res.status]).toEqual([JSON.stringify(json), 400]);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "expire_previous_in_hours", message: expect.any(String), reason }] });
    }
    const extra = await rotate(sub.id, { expire_previous_in_hours: 1, secret: "mine" });
    expect([extra.status, extra.body.error.details[0].path, extra.body.error.details[0].reason]).toEqual([400, "secret", "unknown_field"]);
    expect(await row(sub.id)).toEqual(before);
  });
});
