import { beforeAll, describe, expect, it } from "vitest";
import { createDueInstallments } from "../../src/domains/orders/schedule.js";
import { useTestApp } from "../helpers/app.js";
import { acceptedOrder, createOpenScheme, dayPlus, lumpsumOrder, orderingInvestor, placedOrder, today } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
/** Oldest first. */
let o: { lump1: string; sip: string; lump2: string; child1: string; child2: string };

const list = (query = "", token = ctx.token) => app.http("GET", `/api/orders/v1${query}`, { token });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((order) => order.id);

beforeAll(async () => {
  await createOpenScheme(app, "926101");
  // Its own distributors: the lists do not depend on what other tests placed.
  ctx = await orderingInvestor(app);
  const lump1 = await placedOrder(app, ctx, lumpsumOrder("926101", { amount: 1000 }));
  const sip = await acceptedOrder(app, ctx, {
    order_type: "SIP", scheme_code: "926101", amount: 1000, sip: { frequency: "WEEKLY", start_date: today(), installments: 3, installment_day: 1 },
  });
  const lump2 = await placedOrder(app, ctx, lumpsumOrder("926101", { amount: 2000 }));
  await createDueInstallments(app.prisma, today());
  await createDueInstallments(app.prisma, dayPlus(7));
  const children = await app.prisma.order.findMany({ where: { parentOrderId: sip }, orderBy: { installmentNo: "asc" }, select: { id: true } });
  expect(children).toHaveLength(2);
  o = { lump1, sip, lump2, child1: children[0]!.id, child2: children[1]!.id };
});

describe("GET /api/orders/v1 filtered by order_type and parent_order_id", () => {
  it("lists a registration's installment orders, newest first, each as GET /api/orders/v1/{id} shows it", async () => {
    const res = await list(`?parent_order_id=${o.sip}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([o.child2, o.child1]);
    expect(res.body.next_cursor).toBeNull();
    for (const item of res.body.data) expect(item).toEqual((await app.http("GET", `/api/orders/v1/${item.id}`, { token: ctx.token })).body);
    expect(res.body.data[1]).toMatchObject({ order_type: "SIP", status: "ACCEPTED", parent_order_id: o.sip, installment_no: 1, amount: 1000, payment_status: "UNPAID" });
    expect(res.body.data[0]).toMatchObject({ parent_order_id: o.sip, installment_no: 2 });
    // A one-time order has no installments: an empty list.
    expect((await list(`?parent_order_id=${o.lump1}`)).body).toEqual({ data: [], next_cursor: null });
  });

  it("filters by order_type, alone and with status, investor_id and parent_order_id", async () => {
    expect(ids(await list("?order_type=LUMPSUM_PURCHASE"))).toEqual([o.lump2, o.lump1]);
    expect(ids(await list("?order_type=SIP"))).toEqual([o.child2, o.child1, o.sip]);
    expect(ids(await list(`?order_type=SIP&investor_id=${ctx.investorId}&status=ACCEPTED`))).toEqual([o.child2, o.child1, o.sip]);
    expect(ids(await list("?order_type=LUMPSUM_PURCHASE&status=PENDING"))).toEqual([o.lump2, o.lump1]);
    expect(ids(await list(`?order_type=SIP&parent_order_id=${o.sip}`))).toEqual([o.child2, o.child1]);
    expect((await list(`?order_type=XSIP&parent_order_id=${o.sip}`)).body).toEqual({ data: [], next_cursor: null });
    expect((await list("?order_type=REDEMPTION")).body).toEqual({ data: [], next_cursor: null });
    expect(ids(await list())).toEqual([o.child2, o.child1, o.lump2, o.sip, o.lump1]);
  });

  it("pages a filtered list with limit and cursor", async () => {
    const page1 = await list(`?parent_order_id=${o.sip}&limit=1`);
    expect(ids(page1)).toEqual([o.child2]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await list(`?parent_order_id=${o.sip}&limit=1&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: o.child1 })], next_cursor: null });

    const type1 = await list("?order_type=SIP&limit=2");
    expect(ids(type1)).toEqual([o.child2, o.child1]);
    const type2 = await list(`?order_type=SIP&limit=2&cursor=${type1.body.next_cursor}`);
    expect(type2.body).toEqual({ data: [expect.objectContaining({ id: o.sip })], next_cursor: null });
  });

  it("shows another distributor nothing: our parent_order_id gives it an empty list, not 404", async () => {
    expect(await list(`?parent_order_id=${o.sip}`, ctx.otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect(await list("?order_type=SIP", ctx.otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect(await list(`?investor_id=${ctx.investorId}`, ctx.otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
  });

  it("refuses an unknown order_type and a bad parent_order_id with 400 on its path", async () => {
    for (const [query, path, reason] of [
      ["?order_type=STP_PLAN", "order_type", "invalid_value"],
      ["?order_type=sip", "order_type", "invalid_value"],
      [`?parent_order_id=${"x".repeat(65)}`, "parent_order_id", "too_big"],
      ["?status=DONE", "status", "invalid_value"],
      ["?cursor=not-a-cursor", "cursor", "invalid_cursor"],
      ["?parent_id=ord_1", "parent_id", "unknown_field"],
    ] as const) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path, message: expect.any(String), reason }] },
        request_id: expect.any(String),
      });
    }
  });

  it("has an index for the distributor's orders of one type, newest first", async () => {
    const rows = await app.prisma.$queryRawUnsafe<Array<{ indexdef: string }>>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'orders' AND indexname = 'orders_distributor_id_order_type_id_idx'",
    );
    expect(rows.map((r) => r.indexdef)).toEqual([expect.stringContaining("(distributor_id, order_type, id)")]);
  });
});
