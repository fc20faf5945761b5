import { beforeAll, describe, expect, it } from "vitest";
import { getOrderById } from "../../src/domains/orders/orders.repo.js";
import { createPayment } from "../../src/domains/payments/payments.service.js";
import { useTestApp } from "../helpers/app.js";
import { createOpenScheme, orderingInvestor } from "../helpers/orders.js";
import { pendingUpiPayment } from "../helpers/payments.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
let orderA = "";
let orderB = "";
/** Oldest first: order A's FAILED payment, order A's second attempt (PENDING), order B's CAPTURED payment. */
let created: string[] = [];

const list = (query = "", token = ctx.token) => app.http("GET", `/api/payments/v1${query}`, { token });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((p) => p.id);
const sim = (path: string) => app.http("GET", `/api/simulation/payments/v1/${path}`, { token: ctx.token });

beforeAll(async () => {
  await createOpenScheme(app, "926001");
  // Its own distributors: the lists do not depend on what other tests created.
  ctx = await orderingInvestor(app);
  const first = await pendingUpiPayment(app, ctx, "926001", 1500.25);
  orderA = first.orderId;
  expect((await sim(`${first.paymentId}/fail?failure_code=user_cancelled`)).status).toBe(200);
  const retry = await app.prisma.$transaction(async (tx) =>
    createPayment(tx, { order: await getOrderById(tx, orderA), mode: "UPI", details: { vpa: "as***@okhdfc" } }),
  );
  const other = await pendingUpiPayment(app, ctx, "926001", 700);
  orderB = other.orderId;
  expect((await sim(`${other.paymentId}/capture`)).status).toBe(200);
  created = [first.paymentId, retry.id, other.paymentId];
});

describe("GET /api/payments/v1", () => {
  it("lists the distributor's payments newest first, each as GET /api/payments/v1/{id} shows it", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...created].reverse());
    expect(res.body.next_cursor).toBeNull();
    for (const item of res.body.data) expect(item).toEqual((await app.http("GET", `/api/payments/v1/${item.id}`, { token: ctx.token })).body);
    expect(res.body.data[2]).toEqual({
      id: created[0],
      order_id: orderA,
      basket_id: null,
      mode: "UPI",
      amount: 1500.25,
      status: "FAILED",
      mandate_id: null,
      bank_account_id: null,
      vpa: "as***@okhdfc",
      gateway_reference: null,
      provider_remark: "SANDBOX: PAYMENT FAILED BY SIMULATION",
      failure_code: "user_cancelled",
      captured_at: null,
      refunded_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body.data[0]).toMatchObject({ id: created[2], order_id: orderB, amount: 700, status: "CAPTURED", captured_at: expect.any(String) });
  });

  it("filters by order_id and status, together and apart", async () => {
    expect(ids(await list(`?order_id=${orderA}`))).toEqual([created[1], created[0]]);
    expect(ids(await list(`?order_id=${orderB}`))).toEqual([created[2]]);
    expect(ids(await list("?status=FAILED"))).toEqual([created[0]]);
    expect(ids(await list("?status=CAPTURED"))).toEqual([created[2]]);
    expect(ids(await list(`?order_id=${orderA}&status=PENDING`))).toEqual([created[1]]);
    expect((await list(`?order_id=${orderB}&status=PENDING`)).body).toEqual({ data: [], next_cursor: null });
    expect((await list("?status=REFUNDED")).body).toEqual({ data: [], next_cursor: null });
  });

  it("pages with limit and cursor", async () => {
    const page1 = await list("?limit=2");
    expect(ids(page1)).toEqual([created[2], created[1]]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await list(`?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: created[0] })], next_cursor: null });

    const one1 = await list(`?order_id=${orderA}&limit=1`);
    expect(ids(one1)).toEqual([created[1]]);
    const one2 = await list(`?order_id=${orderA}&limit=1&cursor=${one1.body.next_cursor}`);
    expect(one2.body).toEqual({ data: [expect.objectContaining({ id: created[0] })], next_cursor: null });
  });

  it("shows another distributor nothing: its own list is empty, and our order_id gives it an empty list, not 404", async () => {
    expect(await list("", ctx.otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect(await list(`?order_id=${orderA}`, ctx.otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect((await list("?order_id=ord_unknown")).body).toEqual({ data: [], next_cursor: null });
  });

  it("refuses a bad status, limit or cursor, and an unknown query parameter, with 400 on its path", async () => {
    const damaged = Buffer.from(JSON.stringify(["a", "b"])).toString("base64url");
    for (const [query, path, reason] of [
      ["?status=SETTLED", "status", "invalid_value"],
      ["?limit=0", "limit", "too_small"],
      ["?limit=101", "limit", "too_big"],
      ["?cursor=not-a-cursor", "cursor", "invalid_cursor"],
      [`?cursor=${damaged}`, "cursor", "invalid_cursor"],
      [`?order_id=${"x".repeat(65)}`, "order_id", "too_big"],
      ["?investor_id=inv_1", "investor_id", "unknown_field"],
    ] as const) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path, message: expect.any(String), reason }] },
        request_id: expect.any(String),
      });
    }
    expect((await app.http("GET", "/api/payments/v1")).status).toBe(401);
  });
});
