import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { runTask } from "../helpers/jobs.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

// No WEBHOOK_ALLOW_PRIVATE_TARGETS here: the public-address rule applies in full.
const app = useTestApp();
let token = "";
let receiver: Receiver;
/** What the outside world's DNS answers, per name. */
const dns = new Map<string, string[]>();

beforeAll(async () => {
  token = (await app.newDistributor()).token;
  receiver = await startReceiver();
  app.services.resolveHost = async (hostname) => {
    const answer = dns.get(hostname);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  };
});
afterAll(() => receiver.close());

const subscribe = (json: unknown, headers: Record<string, string> = {}) => app.http("POST", "/api/webhooks/v1/subscriptions", { token, json, headers });

describe("POST /api/webhooks/v1/subscriptions", () => {
  it("creates a subscription (201) whose secret is shown once and stored only encrypted", async () => {
    dns.set("hooks.example.com", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
    const res = await subscribe({ url: "https://hooks.example.com/mf", events: ["order.*", "payment.captured"] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: expect.stringMatching(/^whs_/), url: "https://hooks.example.com/mf", events: ["order.*", "payment.captured"], secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/), status: "ACTIVE", failing_since: null, disabled_at: null, created_at: expect.any(String) },
    });
    const { id, secret } = res.body.data;
    const row = await app.prisma.webhookSubscription.findUniqueOrThrow({ where: { id } });
    expect(row.secretEncrypted).not.toContain(secret.slice(6));
    expect(app.services.cipher.decrypt(row.secretEncrypted)).toBe(secret);
    const listed = await app.http("GET", "/api/webhooks/v1/subscriptions", { token });
    expect(listed.body).toEqual({ success: true, data: [{ id, url: "https://hooks.example.com/mf", events: ["order.*", "payment.captured"], status: "ACTIVE", failing_since: null, disabled_at: null, created_at: expect.any(String) }] });
    expect(listed.text).not.toContain(secret);
    expect(app.logs.join("\n")).not.toContain(secret);
  });

  it("answers a repeated Idempotency-Key with the same subscription and secret", async () => {
    dns.set("idem.example.com", ["93.184.216.34"]);
    const body = { url: "https://idem.example.com/", events: ["investor.*"] };
    const first = await subscribe(body, { "idempotency-key": "sub-1" });
    const second = await subscribe(body, { "idempotency-key": "sub-1" });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await subscribe({ ...body, events: ["order.*"] }, { "idempotency-key": "sub-1" })).status).toBe(409);
    expect(await app.prisma.webhookSubscription.count({ where: { url: "https://idem.example.com/" } })).toBe(1);
  });

  it("accepts the fourteen names and the five wildcards (broker changes: beta), and nothing else", async () => {
    dns.set("all.example.com", ["93.184.216.34"]);
    const names = [
      "investor.registered", "investor.rejected", "mandate.registered", "mandate.rejected", "mandate.cancelled", "order.accepted",
      "order.rejected", "order.failed", "order.allotted", "payment.captured", "payment.failed", "payment.refunded",
      "broker_change.submitted", "broker_change.rejected",
      "investor.*", "mandate.*", "order.*", "payment.*", "broker_change.*",
    ];
    expect((await subscribe({ url: "https://all.example.com/", events: names })).status).toBe(201);
    for (const [events, path] of [[["order.created"], "events[0]"], [["*"], "events[0]"], [["order.accepted", "orders.*"], "events[1]"], [["broker_change.submitted", "broker_changes.*"], "events[1]"], [["broker_change.accepted"], "events[0]"], [[], "events"], [["order.*", "order.*"], "events"]] as const) {
      const res = await subscribe({ url: "https://all.example.com/", events });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
    expect((await subscribe({ url: "https://all.example.com/", events: ["order.*"], secret: "mine" })).status).toBe(400);
  });

  it("refuses targets that are not public https addresses, in every spelling, writing nothing", async () => {
    dns.set("intranet.example.com", ["10.1.2.3"]);
    dns.set("mixed.example.com", ["93.184.216.34", "192.168.0.10"]);
    dns.set("v6-loopback.example.com", ["::1"]);
    dns.set("metadata.example.com", ["169.254.169.254"]);
    const refused = [
      "http://hooks.example.com/mf", "ftp://hooks.example.com/", "https://user:pass@hooks.example.com/", "https://user@hooks.example.com/",
      "not a url", "https://localhost/", "https://api.localhost/", "https://127.0.0.1/", "https://127.1/", "https://2130706433/",
      "https://0x7f000001/", "https://0177.0.0.1/", "https://0x7f.0.0.1/", "https://017700000001/", "https://10.0.0.1/",
      "https://172.16.5.4/", "https://192.168.1.1/", "https://100.64.0.1/", "https://169.254.169.254/latest/meta-data/",
      "https://0.0.0.0/", "https://0/", "https://[::1]/", "https://[::]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/",
      "https://[::ffff:10.0.0.1]/", "https://[64:ff9b::7f00:1]/", "https://[2002:7f00:1::]/", "https://[fe80::1]/", "https://[fc00::1]/",
      "https://[fd00:ec2::254]/", "https://[ff02::1]/", "https://224.0.0.1/", "https://240.0.0.1/", "https://255.255.255.255/",
      "https://198.18.0.1/", "https://intranet.example.com/", "https://mixed.example.com/", "https://v6-loopback.example.com/",
      "https://metadata.example.com/", "https://nowhere.example.com/",
    ];
    expect(refused.length).toBeGreaterThanOrEqual(30);
    const before = await app.prisma.webhookSubscription.count();
    for (const url of refused) {
      const res = await subscribe({ url, events: ["order.*"] });
      expect([url, res.status, res.body.error?.code]).toEqual([url, 400, "VALIDATION_ERROR"]);
      expect(res.body.error.details[0]).toMatchObject({ path: "url", message: expect.any(String), reason: "target_not_allowed" });
    }
    expect(await app.prisma.webhookSubscription.count()).toBe(before);
  });
});

describe("the port rule (https on 443 or 1024-65535)", () => {
  const portMessage = (port: number) => `url port ${port} is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure`;

  it("refuses other ports on a public address when subscribing: 400 on url, nothing written", async () => {
    dns.set("ports.example.com", ["93.184.216.34"]);
    const before = await app.prisma.webhookSubscription.count();
    for (const [url, port] of [
      ["https://ports.example.com:22/", 22], ["https://ports.example.com:25/hook", 25], ["https://93.184.216.34:0/", 0],
      ["https://93.184.216.34:80/", 80], ["https://[2606:2800:220:1:248:1893:25c8:1946]:1023/", 1023],
      ["https://ports.example.com:5432/", 5432],
    ] as const) {
      const res = await subscribe({ url, events: ["order.*"] });
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path: "url", message: portMessage(port), reason: "target_not_allowed" }] },
        request_id: expect.any(String),
      });
    }
    expect(await app.prisma.webhookSubscription.count()).toBe(before);
  });

  it("accepts 443 (written or not) and 1024-65535", async () => {
    dns.set("ports.example.com", ["93.184.216.34"]);
    for (const [url, stored] of [
      ["https://ports.example.com/a", "https://ports.example.com/a"],
      ["https://ports.example.com:443/b", "https://ports.example.com/b"],
      ["https://ports.example.com:1024/c", "https://ports.example.com:1024/c"],
      ["https://ports.example.com:65535/d", "https://ports.example.com:65535/d"],
    ] as const) {
      const res = await subscribe({ url, events: ["order.*"] });
      expect([url, res.status, res.body.data.url]).toEqual([url, 201, stored]);
    }
  });

  it("refuses a stored target on port 22 at delivery time: FAILED, nothing sent", async () => {
    // A subscription made before the rule existed (the API no longer takes it).
    const other = await app.newDistributor();
    const sub = await app.prisma.webhookSubscription.create({
      data: {
        id: "whs_port22",
        distributorId: other.distributor_id,
        url: "https://93.184.216.34:22/hooks",
        events: ["investor.*"],
        secretEncrypted: app.services.cipher.encrypt("whsec_port22"),
        status: "ACTIVE",
      },
    });
    const investor = (await app.http("POST", "/api/investors/v1", { token: other.token, json: investorBody() })).body;
    await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token: other.token });
    const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id } });
    expect(delivery).toMatchObject({ status: "PENDING", attempts: 0 });
    await runTask(app, deliverWebhooks, {});
    const row = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 1, lastStatusCode: null, lastError: `refused: ${portMessage(22)}` });
    expect(await app.prisma.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, select: { statusCode: true, error: true, responseBody: true } })).toEqual([
      { statusCode: null, error: `refused: ${portMessage(22)}`, responseBody: "" },
    ]);
  });
});

describe("the public-address check at delivery time", () => {
  it("refuses a name that resolved to a public address at subscription and to 127.0.0.1 now: FAILED, nothing sent", async () => {
    dns.set("rebind.example.com", ["93.184.216.34"]);
    const sub = (await subscribe({ url: `https://rebind.example.com:${receiver.port}/hooks`, events: ["investor.*"] })).body.data;
    const investor = (await app.http("POST", "/api/investors/v1", { token, json: investorBody() })).body;
    dns.set("rebind.example.com", ["127.0.0.1"]);
    await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token });
    const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id } });
    await runTask(app, deliverWebhooks, {});
    const row = await app.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 1, lastStatusCode: null });
    expect(row.lastError).toMatch(/^refused: .*127\.0\.0\.1/);
    expect(receiver.received).toEqual([]);
    const retried = await app.http("POST", `/api/webhooks/v1/deliveries/${delivery!.id}/retry`, { token });
    expect(retried.body.data.status).toBe("PENDING");
  });

  it("deletes a subscription once; another delete is 404", async () => {
    dns.set("del.example.com", ["93.184.216.34"]);
    const sub = (await subscribe({ url: "https://del.example.com/", events: ["order.*"] })).body.data;
    const deleted = await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { id: sub.id, url: "https://del.example.com/", events: ["order.*"], status: "DELETED", failing_since: null, disabled_at: null, created_at: expect.any(String), deleted: true } });
    expect((await app.http("DELETE", `/api/webhooks/v1/subscriptions/${sub.id}`, { token })).status).toBe(404);
  });
});
