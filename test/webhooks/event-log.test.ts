import { beforeAll, describe, expect, it } from "vitest";
import { resourceTypeOfId } from "../../src/domains/events/catalog.js";
import { useTestApp } from "../helpers/app.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

// No receiver is needed: deliveries stay PENDING; their payloads are compared with the log.
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
let orders: string[] = [];
let subscriptionId = "";

beforeAll(async () => {
  await createOpenScheme(app, "950301");
  ctx = await orderingInvestor(app);
  const sub = await app.http("POST", "/api/webhooks/v1/subscriptions", { token: ctx.token, json: { url: "https://localhost:8443/hooks", events: ["order.*"] } });
  subscriptionId = sub.body.data.id;
  orders = [];
  for (let i = 0; i < 3; i++) orders.push(await acceptedOrder(app, ctx, lumpsumOrder("950301", { amount: 1000 + i })));
  await app.http("GET", `/api/simulation/orders/v1/${orders[0]}/allot`, { token: ctx.token });
});

const list = (query = "", token = ctx.token) => app.http("GET", `/api/events/v1${query}`, { token });

/** The distributor's events as the database has them, in the log's order, as the API shows them. */
async function expected() {
  const { distributorId } = await app.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: subscriptionId } });
  const rows = await app.prisma.event.findMany({ where: { distributorId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((r) => ({ id: r.id, type: r.event, resource_type: r.resourceType, resource_id: r.resourceId, data: r.data, created_at: r.createdAt.toISOString() }));
}

describe("GET /api/events/v1", () => {
  it("lists the distributor's events oldest first, with the data webhooks deliver", async () => {
    const all = await expected();
    expect(all.map((e) => e.type)).toEqual(["investor.registered", "order.accepted", "order.accepted", "order.accepted", "order.allotted"]);
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: all, next_cursor: null });
    expect(res.body.data[1]).toEqual({
      id: expect.stringMatching(/^evt_/), type: "order.accepted", resource_type: "order", resource_id: orders[0],
      data: { order_id: orders[0], status: "ACCEPTED", provider_remark: "ORDER CONFIRMED" }, created_at: expect.any(String),
    });
    // The same thin payload as the delivery of each event carries under `data`.
    for (const event of res.body.data.filter((e: { type: string }) => e.type.startsWith("order."))) {
      const delivery = await app.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId: event.id, subscriptionId } });
      expect(JSON.parse(delivery.payload)).toEqual({ success: true, data: event.data });
    }
  });

  it("pages with limit and an opaque cursor, each event once, in order", async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(await expected());
    expect((await list("?limit=100")).body.data).toHaveLength(5);
  });

  it("filters by type, resource_id and since (inclusive)", async () => {
    const all = await expected();
    expect((await list("?type=order.allotted")).body).toEqual({ success: true, data: all.filter((e) => e.type === "order.allotted"), next_cursor: null });
    expect((await list(`?resource_id=${orders[0]}`)).body.data.map((e: { type: string }) => e.type)).toEqual(["order.accepted", "order.allotted"]);
    expect((await list(`?resource_id=${orders[1]}&type=order.allotted`)).body.data).toEqual([]);
    // An id no event can be about (no resource type has its prefix) is an empty page, as an unknown id is.
    expect((await list(`?resource_id=${orders[0]!.replace(/^ord_/, "zzz_")}`)).body).toEqual({ success: true, data: [], next_cursor: null });
    expect((await list("?resource_id=__proto__")).body).toEqual({ success: true, data: [], next_cursor: null });
    for (const row of await app.prisma.event.findMany()) expect(resourceTypeOfId(row.resourceId), row.resourceId).toBe(row.resourceType);
    const third = all[2]!;
    const since = encodeURIComponent(third.created_at);
    expect((await list(`?since=${since}`)).body.data).toEqual(all.filter((e) => e.created_at >= third.created_at));
    // An offset time means the same instant.
    const inIndia = new Date(Date.parse(third.created_at) + 5.5 * 3_600_000).toISOString().replace("Z", "+05:30");
    expect((await list(`?since=${encodeURIComponent(inIndia)}`)).body.data).toEqual(all.filter((e) => e.created_at >= third.created_at));
    expect((await list(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body).toEqual({ success: true, data: [], next_cursor: null });
  });

  it("shows another distributor nothing of these, and a test event to no one", async () => {
    expect((await list("", ctx.otherToken)).body).toEqual({ success: true, data: [], next_cursor: null });
    const other = await orderingInvestor(app);
    const theirs = (await list("", other.token)).body.data;
    expect(theirs.map((e: { type: string; resource_id: string }) => [e.type, e.resource_id])).toEqual([["investor.registered", other.investorId]]);
    expect((await list()).body.data.map((e: { id: string }) => e.id)).not.toContain(theirs[0].id);
    expect((await list(`?resource_id=${other.investorId}`)).body.data).toEqual([]);
    const before = (await list()).body.data.length;
    await app.http("POST", `/api/webhooks/v1/subscriptions/${subscriptionId}/test`, { token: ctx.token });
    expect((await list()).body.data).toHaveLength(before);
    expect((await list(`?resource_id=${subscriptionId}`)).body.data).toEqual([]);
  });

  it("400 with the field path for an unknown type, a bad limit, time or cursor, and unknown parameters", async () => {
    const damaged = Buffer.from(JSON.stringify(["not a time", "evt_x"])).toString("base64url");
    for (const [query, path, reason] of [
      ["?type=order.created", "type", "invalid_value"],
      ["?type=webhook.test", "type", "invalid_value"],
      ["?type=order.*", "type", "invalid_value"],
      ["?limit=0", "limit", "too_small"],
      ["?limit=101", "limit", "too_big"],
      ["?since=yesterday", "since", "invalid_format"],
      ["?since=2026-11-20", "since", "invalid_format"],
      ["?cursor=garbage", "cursor", "invalid_cursor"],
      [`?cursor=${damaged}`, "cursor", "invalid_cursor"],
      ["?page=2", "page", "unknown_field"],
    ] as const) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path, message: expect.any(String), reason }] },
        request_id: expect.any(String),
      });
    }
    expect((await app.http("GET", "/api/events/v1")).status).toBe(401);
  });
});
