import { SpanKind } from "@opentelemetry/api";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/env.js";
import { startTracing, type Tracing } from "../../src/platform/tracing/setup.js";
import { currentTraceparent } from "../../src/platform/tracing/trace-context.js";
import { inSpan } from "../../src/platform/tracing/tracer.js";
import { startWorker, type WorkerHandle } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let collector: OtlpReceiver;
let webhooks: Receiver;
let tracing: Tracing;
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  collector = await startOtlpReceiver();
  webhooks = await startReceiver();
  // The settings as the service reads them from its environment (src/env.ts), pointed at the receiver.
  const { tracing: settings } = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
  tracing = await startTracing({ ...settings, role: "all" });
  await createOpenScheme(app, "951001");
  ctx = await orderingInvestor(app);
});
afterAll(async () => {
  // The SDK unregisters itself: this worker process's later test files run untraced.
  await tracing?.shutdown();
  await webhooks?.close();
  await collector?.close();
});

/** A caller's own trace, which the request must continue. */
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

describe("one order's trace, from POST to the webhook delivery", () => {
  let spans: ReceivedSpan[];
  let orderId: string;
  let requestId: string;

  beforeAll(async () => {
    const subscribed = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: ctx.token, json: { url: webhooks.url(), events: ["order.accepted"] } });
    expect(subscribed.status).toBe(201);
    const worker: WorkerHandle = await startWorker(app.services, app.databaseUrl);
    try {
      const placed = await app.http("POST", "/api/orders/v1", {
        token: ctx.token,
        json: { investment_account_id: ctx.account, ...lumpsumOrder("951001", { amount: 1000 }) },
        headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      });
      expect(placed.status, placed.text).toBe(201);
      orderId = placed.body.id;
      requestId = placed.headers.get("x-request-id")!;
      const deliveredFor = () => webhooks.received.filter((r) => JSON.parse(r.body.toString()).data.order_id === orderId).length;
      await until(async () => deliveredFor() === 1, 20_000);
      const subscriptionId = subscribed.body.data.id as string;
      await until(async () => (await app.prisma.webhookDelivery.findMany({ where: { subscriptionId } })).every((d) => d.status === "DELIVERED"), 10_000);
    } finally {
      await worker.stop();
    }
    await tracing.flush();
    spans = collector.spans.filter((s) => s.traceId === CALLER_TRACE);
  });

  const one = (name: string) => {
    const found = spans.filter((s) => s.name === name);
    expect(found.map((s) => s.name), `spans named ${name} in ${spans.map((s) => s.name).join(", ")}`).toEqual([name]);
    return found[0]!;
  };

  it("was received strictly: OTLP/HTTP JSON on /v1/traces, with the service's name and role", () => {
    expect(collector.refused).toEqual([]);
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.every((s) => s.resource["service.name"] === "mf-distribution-service" && s.resource["mf.role"] === "all")).toBe(true);
  });

  it("continues the caller's traceparent in a server span named after the route template", () => {
    const server = one("POST /api/orders/v1");
    expect(server).toMatchObject({ kind: SPAN_KIND.SERVER, parentSpanId: CALLER_SPAN });
    expect(server.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/orders/v1",
      "http.response.status_code": 201,
      "mf.request_id": requestId,
    });
  });

  it("chains procedure -> dispatch job -> exchange call, and the webhook attempt to the job that recorded the event", () => {
    const server = one("POST /api/orders/v1");
    const procedure = one("orders.place");
    const dispatch = one("job orders__dispatch");
    const exchange = one("placeOrder");
    const attempt = one("POST webhook");
    expect(procedure).toMatchObject({ kind: SPAN_KIND.INTERNAL, parentSpanId: server.spanId, attributes: { "rpc.system": "trpc", "rpc.method": "orders.place" } });
    expect(dispatch).toMatchObject({
      kind: SPAN_KIND.CONSUMER,
      parentSpanId: procedure.spanId,
      attributes: { "messaging.system": "graphile-worker", "messaging.destination.name": "orders__dispatch", "mf.job.attempt": 1 },
    });
    expect(exchange).toMatchObject({ kind: SPAN_KIND.CLIENT, parentSpanId: dispatch.spanId, attributes: { "rpc.service": "SandboxExchange", "rpc.method": "placeOrder" } });
    expect(attempt).toMatchObject({
      kind: SPAN_KIND.CLIENT,
      parentSpanId: dispatch.spanId,
      attributes: { "http.request.method": "POST", "server.address": "localhost", "server.port": webhooks.port, "http.response.status_code": 200 },
    });
    // The delivery job that sent it, a batch of many traces, is linked rather than parent.
    const deliverJob = collector.spans.find((s) => s.spanId === attempt.links[0]?.spanId);
    expect(deliverJob).toMatchObject({ name: "job webhooks__deliver", kind: SPAN_KIND.CONSUMER });
  });

  it("has the database queries as pg spans under the request's and the job's spans", () => {
    const procedure = one("orders.place");
    const dispatch = one("job orders__dispatch");
    const db = spans.filter((s) => s.attributes["db.system.name"] === "postgresql");
    expect(db.length).toBeGreaterThan(0);
    expect(db.every((s) => s.kind === SPAN_KIND.CLIENT)).toBe(true);
    const parents = new Set(db.map((s) => s.parentSpanId));
    expect(parents.has(procedure.spanId) || db.some((s) => isBelow(s, procedure))).toBe(true);
    expect(parents.has(dispatch.spanId) || db.some((s) => isBelow(s, dispatch))).toBe(true);
  });

  it("has every span of the trace hang from the caller's span, with no parent missing", () => {
    const ids = new Set(spans.map((s) => s.spanId));
    const orphans = spans.filter((s) => s.parentSpanId !== CALLER_SPAN && !ids.has(s.parentSpanId));
    expect(orphans.map((s) => s.name)).toEqual([]);
  });

  it("leaves no traceparent in what the handlers see, and keeps it on the delivery row", async () => {
    const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { eventId: { not: "" }, payload: { contains: orderId } } });
    const dispatch = one("job orders__dispatch");
    expect(delivery!.traceparent).toBe(`00-${CALLER_TRACE}-${dispatch.spanId}-01`);
    expect(delivery!.payload).not.toContain("traceparent");
  });

  function isBelow(span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) if (at.spanId === ancestor.spanId) return true;
    return false;
  }
});

describe("request spans name the route, never the raw path", () => {
  const serverSpanOf = async (requestId: string) => {
    await tracing.flush();
    const found = collector.spans.filter((s) => s.kind === SPAN_KIND.SERVER && s.attributes["mf.request_id"] === requestId);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it("by the REST operation's template, or else Hono's route, as the metrics label them", async () => {
    const cases: Array<[string, string, string | undefined, string, number]> = [
      ["GET", "/api/orders/v1/ord_not_there", ctx.token, "GET /api/orders/v1/{id}", 404],
      ["GET", "/healthz", undefined, "GET /healthz", 200],
      ["GET", "/trpc/orders.get?input=%7B%22id%22%3A%22ord_x%22%7D", ctx.token, "GET /trpc/*", 404],
      // No route answered: one name for all of them (the metrics' "unmatched"), whatever catch-all saw it.
      ["GET", "/api/nowhere/ord_x", ctx.token, "GET unmatched", 404],
      ["GET", "/nowhere/ord_x", undefined, "GET unmatched", 404],
    ];
    for (const [method, path, token, name, status] of cases) {
      const res = await app.http(method, path, token ? { token } : {});
      expect(res.status, path).toBe(status);
      const span = await serverSpanOf(res.headers.get("x-request-id")!);
      expect({ name: span.name, route: span.attributes["http.route"], status: span.attributes["http.response.status_code"], parent: span.parentSpanId }).toEqual({
        name, route: name.slice(method.length + 1), status, parent: "",
      });
      expect(JSON.stringify(span)).not.toContain("ord_");
    }
  });
});

describe("an incoming traceparent", () => {
  it("is continued even when it says not sampled, and ignored when malformed", async () => {
    const unsampled = await app.http("GET", "/healthz", { headers: { traceparent: `00-${"a".repeat(32)}-${"b".repeat(16)}-00` } });
    const malformed = await app.http("GET", "/healthz", { headers: { traceparent: "00-zz-yy-01" } });
    await tracing.flush();
    const spanOf = (res: { headers: Headers }) => collector.spans.find((s) => s.attributes["mf.request_id"] === res.headers.get("x-request-id"));
    expect(spanOf(unsampled)).toMatchObject({ traceId: "a".repeat(32), parentSpanId: "b".repeat(16) });
    expect(spanOf(malformed)).toMatchObject({ parentSpanId: "" });
  });
});

describe("the stop", () => {
  it("sends what is batched, then leaves the process untraced: no provider, pg unpatched, no traceparent", async () => {
    const res = await app.http("GET", "/healthz");
    const wrapped = () => (pg.Client.prototype.query as { __wrapped?: boolean }).__wrapped;
    expect(wrapped()).toBe(true);
    await tracing.shutdown();
    expect(collector.spans.filter((s) => s.attributes["mf.request_id"] === res.headers.get("x-request-id"))).toHaveLength(1);
    expect(collector.refused).toEqual([]);
    expect(wrapped()).toBeUndefined();
    const before = collector.spans.length;
    await inSpan("after the stop", { kind: SpanKind.INTERNAL }, async () => expect(currentTraceparent()).toBeUndefined());
    expect((await app.http("GET", "/healthz")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(collector.spans.length).toBe(before);
  });
});

/** Waits until `done` answers true (a beforeAll cannot use expect.poll). */
async function until(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await done()); ) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
