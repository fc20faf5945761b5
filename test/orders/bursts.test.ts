import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { burstWithProbe, DEFAULT_POOL_SIZE, expectLive, statusCounts } from "../helpers/bursts.js";
import { createOpenScheme, eventNames, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { queuedJobs } from "../helpers/jobs.js";

// The pool a deployment runs with: a burst of duplicates must neither exhaust it nor stall other requests.
const app = useTestApp({ MF_DB_POOL_SIZE: String(DEFAULT_POOL_SIZE) });
let token = "";
let account = "";
let probeOrderId = "";

beforeAll(async () => {
  await createOpenScheme(app, "910001");
  ({ token, account } = await orderingInvestor(app));
  probeOrderId = (await place(lumpsum({ client_ref: "probe" }))).body.id;
});

const place = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.http("POST", "/api/orders/v1/", { token, headers, json: { investment_account_id: account, ...json } });
const lumpsum = (overrides: Record<string, unknown> = {}) => lumpsumOrder("910001", overrides);
const getProbeOrder = () => app.http("GET", `/api/orders/v1/${probeOrderId}`, { token });

const ordersWithRef = (clientRef: string) => app.prisma.order.findMany({ where: { clientRef } });
const dispatchJobs = async (orderId: string) => (await queuedJobs(app, "orders__dispatch", "order_id", orderId)).length;

describe("bursts of duplicate orders", () => {
  it("50 at once with one client_ref and one body: every one answers the one order, created once with one dispatch job", async () => {
    const burst = await burstWithProbe(app, { count: 50, gate: "orders", send: () => place(lumpsum({ client_ref: "burst-same" })), probe: getProbeOrder });
    expect(statusCounts(burst.responses)).toEqual({ 201: 50 });
    expectLive(burst, probeOrderId, "orders, one client_ref");
    const [order, ...others] = await ordersWithRef("burst-same");
    expect(others).toEqual([]);
    for (const res of burst.responses) {
      expect(res.body).toEqual({ id: order!.id, client_ref: "burst-same", created_at: order!.createdAt.toISOString(), order_type: "LUMPSUM_PURCHASE", status: "PENDING" });
    }
    expect(await dispatchJobs(order!.id)).toBe(1);
    expect(await eventNames(app, order!.id)).toEqual([]);
  });

  it("50 at once with one client_ref and 50 Idempotency-Keys: the winner's body answers its order, another body 409; only answered keys are kept", async () => {
    // Half send one body, half another: whichever commits first owns the client_ref.
    const bodies = [lumpsum({ client_ref: "burst-keys" }), lumpsum({ client_ref: "burst-keys", amount: 6000 })];
    const burst = await burstWithProbe(app, { count: 50, gate: "orders", send: (i) => place(bodies[i % 2]!, { "idempotency-key": `burst-keys-${i}` }), probe: getProbeOrder });
    expectLive(burst, probeOrderId, "orders, one client_ref, 50 keys");

    const [order, ...others] = await ordersWithRef("burst-keys");
    expect(others).toEqual([]);
    const winner = order!.amount!.toNumber() === 5000 ? 0 : 1;
    const created = { id: order!.id, client_ref: "burst-keys", created_at: order!.createdAt.toISOString(), order_type: "LUMPSUM_PURCHASE", status: "PENDING" };
    burst.responses.forEach((res, i) => {
      if (i % 2 === winner) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: created });
      } else {
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          success: false,
          error: { code: "CONFLICT", message: `client_ref burst-keys is already used by order ${order!.id} with a different body` },
          request_id: expect.any(String),
        });
      }
    });
    expect(await dispatchJobs(order!.id)).toBe(1);
    expect(await eventNames(app, order!.id)).toEqual([]);
    // Answered keys keep their answer; refused ones leave nothing behind.
    const keys = await app.prisma.idempotencyKey.findMany({ where: { key: { startsWith: "burst-keys-" } } });
    expect(keys.map((k) => k.key).sort()).toEqual(burst.responses.flatMap((_, i) => (i % 2 === winner ? [`burst-keys-${i}`] : [])).sort());
    for (const key of keys) expect({ status: key.responseStatus, body: key.responseBody }).toEqual({ status: 201, body: created });
    const replay = await place(bodies[winner]!, { "idempotency-key": `burst-keys-${winner}` });
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 201, body: created });
  });

  it("50 at once with one Idempotency-Key: one order, every answer the first one", async () => {
    const burst = await burstWithProbe(app, { count: 50, gate: "orders", send: () => place(lumpsum(), { "idempotency-key": "burst-one-key" }), probe: getProbeOrder });
    expect(statusCounts(burst.responses)).toEqual({ 201: 50 });
    expectLive(burst, probeOrderId, "orders, one Idempotency-Key");
    const ids = new Set(burst.responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as string[];
    expect(await app.prisma.order.count({ where: { id } })).toBe(1);
    expect(await app.prisma.order.count({ where: { investmentAccountId: account, clientRef: null, createdAt: { gte: new Date(Date.now() - 60_000) } } })).toBe(1);
    for (const res of burst.responses) expect(res.body).toEqual(burst.responses[0]!.body);
    expect(await dispatchJobs(id!)).toBe(1);
  });
});
