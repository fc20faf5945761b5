import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

/**
 * A backlog dispatched by the worker: jobs running at the same time share their database work (one booking
 * statement at the sandbox, one transaction for the moves with their events and fan-out), and each order
 * still moves once with exactly one event, one booking and one delivery per matching subscription.
 */
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let receiver: Receiver;
let token = "";
let account = "";

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answer({ status: 204 });
  await createOpenScheme(app, "900101");
  ({ token, account } = await orderingInvestor(app));
});
afterAll(() => receiver.close());

const place = async (remarks: string | null) => {
  const res = await app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, ...lumpsumOrder("900101", remarks ? { remarks } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};

/** How many transactions last wrote these rows (rows written by one transaction share its xmin). */
async function writers(table: "orders" | "sandbox_exchange_records", column: "id" | "reference", ids: string[]): Promise<number> {
  const [row] = await app.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(DISTINCT xmin::text)::int AS n FROM ${table} WHERE ${column} = ANY($1::text[])`, ids);
  return row!.n;
}

describe("dispatch of a backlog", () => {
  it("moves each order once with one event, one booking and its deliveries, sharing transactions between orders", async () => {
    const subscription = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url(), events: ["order.*"] } });
    expect(subscription.status, subscription.text).toBe(201);
    const accepted: string[] = [];
    for (let i = 0; i < 30; i++) accepted.push(await place(null));
    const rejected = [await place("SIM:REJECT"), await place("SIM:REJECT")];
    const held = await place("SIM:HOLD");
    const all = [...accepted, ...rejected, held];

    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect
        .poll(async () => app.prisma.order.count({ where: { id: { in: all }, OR: [{ status: { not: "PENDING" } }, { exchangeOrderNumber: { not: null } }] } }), { timeout: 20_000 })
        .toBe(all.length);
    } finally {
      await worker.stop();
    }

    const orders = await app.prisma.order.findMany({ where: { id: { in: all } }, select: { id: true, status: true, exchangeOrderNumber: true, failureCode: true } });
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const id of accepted) expect(byId.get(id)).toEqual({ id, status: "ACCEPTED", exchangeOrderNumber: `SBX${id.slice(-12).toUpperCase()}`, failureCode: null });
    for (const id of rejected) expect(byId.get(id)).toEqual({ id, status: "REJECTED", exchangeOrderNumber: null, failureCode: "exchange_rejected" });
    expect(byId.get(held)).toEqual({ id: held, status: "PENDING", exchangeOrderNumber: `SBX${held.slice(-12).toUpperCase()}`, failureCode: null });

    const events = await app.prisma.event.findMany({ where: { resourceId: { in: all } }, select: { id: true, resourceId: true, event: true, data: true } });
    expect(events.map((e) => `${e.resourceId} ${e.event}`).sort()).toEqual(
      [...accepted.map((id) => `${id} order.accepted`), ...rejected.map((id) => `${id} order.rejected`)].sort(),
    );
    for (const e of events.filter((e) => e.event === "order.accepted")) {
      expect(e.data).toEqual({ order_id: e.resourceId, status: "ACCEPTED", provider_remark: "ORDER CONFIRMED" });
    }
    const deliveries = await app.prisma.webhookDelivery.findMany({ where: { eventId: { in: events.map((e) => e.id) } }, select: { eventId: true } });
    expect(deliveries.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "ORDER", reference: { in: all } } })).toBe(all.length);

    // Shared work: the 32 moves took fewer transactions than orders, and the 33 bookings fewer statements.
    expect(await writers("orders", "id", [...accepted, ...rejected])).toBeLessThan(accepted.length + rejected.length);
    expect(await writers("sandbox_exchange_records", "reference", all)).toBeLessThan(all.length);
  });
});
