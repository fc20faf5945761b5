import { beforeAll, describe, expect, it } from "vitest";
import { amountFor, Decimal, unitsFor } from "../../src/platform/lib/money.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor, today } from "../helpers/orders.js";

const app = useTestApp();
let token = "";
let otherToken = "";
let account = "";

beforeAll(async () => {
  await createOpenScheme(app, "910001", "Lifecycle Scheme");
  ({ token, otherToken, account } = await orderingInvestor(app));
});

const place = async (overrides: Record<string, unknown> = {}, as = { token, account }) =>
  (await app.http("POST", "/api/orders/v1/", {
    token: as.token,
    json: { investment_account_id: as.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "910001", amount: 1000, purchase_type: "FRESH", ...overrides },
  })).body as { id: string };
const accepted = async (overrides: Record<string, unknown> = {}) => {
  const { id } = await place(overrides);
  await runTask(app, dispatchOrder, { order_id: id });
  return id;
};
const get = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token })).body;
const sim = (path: string, t = token) => app.http("GET", `/api/simulation/orders/v1/${path}`, { token: t });

describe("allotment arithmetic", () => {
  it("truncates units to 3 decimals and rounds amounts half-up to the paisa, in exact decimals", () => {
    expect(unitsFor(new Decimal("1000.00"), new Decimal("12.3456")).toFixed(3)).toBe("81.000");
    expect(unitsFor(new Decimal("999.99"), new Decimal("10.0000")).toFixed(3)).toBe("99.999");
    expect(amountFor(new Decimal("81.005"), new Decimal("12.3456")).toFixed(2)).toBe("1000.06");
    expect(unitsFor(new Decimal("0.10"), new Decimal("0.3000")).toFixed(3)).toBe("0.333");
  });
});

describe("GET /api/simulation/orders/v1/{id}/allot", () => {
  it("allots an ACCEPTED order with the defaults: NAV 10.00, units = amount / NAV, a simulation folio, today", async () => {
    const id = await accepted();
    const res = await sim(`${id}/allot`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Order allotted", data: id });
    expect(await get(id)).toMatchObject({
      status: "ALLOTTED", nav: 10, units: 100, allotment_date: today(), folio_no: expect.stringMatching(/^SIM/),
    });
    expect((await app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true } })).map((e) => e.event)).toEqual(["order.accepted", "order.allotted"]);
    expect((await sim(`${id}/allot`)).status).toBe(409);
  });

  it("takes units, nav, folio_no and allotment_date, and computes exactly", async () => {
    const byNav = await accepted();
    expect((await sim(`${byNav}/allot?nav=12.3456&folio_no=${encodeURIComponent("12345/67")}&allotment_date=2026-11-20`)).status).toBe(200);
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id: byNav } });
    expect([row.nav?.toFixed(4), row.allottedUnits?.toFixed(3), row.allottedAmount?.toFixed(2)]).toEqual(["12.3456", "81.000", "1000.00"]);
    expect(await get(byNav)).toMatchObject({ nav: 12.3456, units: 81, folio_no: "12345/67", allotment_date: "2026-11-20" });

    const byUnits = await accepted();
    await sim(`${byUnits}/allot?units=80.5&nav=12.3456`);
    const units = await app.prisma.order.findUniqueOrThrow({ where: { id: byUnits } });
    expect([units.allottedUnits?.toFixed(3), units.allottedAmount?.toFixed(2)]).toEqual(["80.500", "993.82"]);
  });

  it("refuses orders that are not ACCEPTED, bad parameters, other distributors' orders", async () => {
    const pending = (await place()).id;
    expect((await sim(`${pending}/allot`)).status).toBe(409);
    const id = await accepted();
    expect((await sim(`${id}/allot?nav=-1`)).status).toBe(400);
    expect((await sim(`${id}/allot?allotment_date=2026-02-30`)).status).toBe(400);
    expect((await sim(`${id}/allot`, otherToken)).status).toBe(404);
    expect((await get(id)).status).toBe("ACCEPTED");
  });
});

describe("simulated exchange decisions on held orders", () => {
  it("accepts, rejects and fails a SIM:HOLD order once; other states are 409", async () => {
    for (const [move, status, event] of [["accept", "ACCEPTED", "order.accepted"], ["reject", "REJECTED", "order.rejected"], ["fail", "FAILED", "order.failed"]] as const) {
      const id = await accepted({ remarks: "SIM:HOLD" });
      expect((await get(id)).status).toBe("PENDING");
      const res = await sim(`${id}/${move}`);
      expect(res.status).toBe(200);
      expect((await get(id)).status).toBe(status);
      expect((await app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true } })).map((e) => e.event)).toEqual([event]);
      expect((await sim(`${id}/${move}`)).status).toBe(409);
    }
  });
});

describe("the order state table", () => {
  it("refuses every move out of an ended order (REJECTED, FAILED, CANCELLED, ALLOTTED) with 409 and changes nothing", async () => {
    const rejected = await accepted({ remarks: "SIM:REJECT" });
    const failed = await accepted({ remarks: "SIM:HOLD" });
    await sim(`${failed}/fail`);
    const cancelled = (await place()).id;
    await app.http("POST", `/api/orders/v1/${cancelled}/cancel`, { token });
    const allotted = await accepted();
    await sim(`${allotted}/allot`);
    for (const [id, status] of [[rejected, "REJECTED"], [failed, "FAILED"], [cancelled, "CANCELLED"], [allotted, "ALLOTTED"]] as const) {
      const events = await app.prisma.event.count({ where: { resourceId: id } });
      for (const move of ["accept", "reject", "fail", "allot"]) {
        const res = await sim(`${id}/${move}`);
        expect([move, res.status, res.body.error?.code]).toEqual([move, 409, "INVALID_STATE"]);
      }
      const cancel = await app.http("POST", `/api/orders/v1/${id}/cancel`, { token });
      expect([cancel.status, cancel.body.error.code]).toEqual([409, "INVALID_STATE"]);
      expect((await get(id)).status).toBe(status);
      expect(await app.prisma.event.count({ where: { resourceId: id } })).toBe(events);
    }
  });

  it("refuses accept, reject and fail on an ACCEPTED order (the exchange already decided)", async () => {
    const id = await accepted();
    for (const move of ["accept", "reject", "fail"]) expect((await sim(`${id}/${move}`)).status).toBe(409);
    expect((await get(id)).status).toBe("ACCEPTED");
  });
});

describe("cancel and list", () => {
  it("cancels a PENDING order not yet sent (order.cancelled); refuses an ACCEPTED lump sum and an allotted one", async () => {
    const pending = (await place()).id;
    const cancelled = await app.http("POST", `/api/orders/v1/${pending}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", cancellation: null });
    expect((await app.prisma.event.findMany({ where: { resourceId: pending }, select: { event: true, data: true } }))).toEqual([
      { event: "order.cancelled", data: { order_id: pending, status: "CANCELLED", provider_remark: null } },
    ]);
    const acceptedId = await accepted();
    const oneTime = await app.http("POST", `/api/orders/v1/${acceptedId}/cancel`, { token });
    expect([oneTime.status, oneTime.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(oneTime.body.error.message).toContain("the exchange does not cancel an accepted one-time order");
    expect(await get(acceptedId)).toMatchObject({ status: "ACCEPTED", cancellation: null });
    const allotted = await accepted();
    await sim(`${allotted}/allot`);
    const refused = await app.http("POST", `/api/orders/v1/${allotted}/cancel`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("INVALID_STATE");
    expect((await app.http("POST", `/api/orders/v1/${pending}/cancel`, { token: otherToken })).status).toBe(404);
  });

  it("lists the caller's orders newest first, filtered, with a cursor", async () => {
    // Its own tenant: the pages and the other distributor's empty list do not depend on what other tests placed.
    const { token, otherToken, investorId, account } = await orderingInvestor(app);
    const ids = [(await place({}, { token, account })).id, (await place({}, { token, account })).id, (await place({}, { token, account })).id];
    const page = await app.http("GET", `/api/orders/v1?investor_id=${investorId}&status=PENDING&limit=2`, { token });
    expect(page.body.data.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    const next = await app.http("GET", `/api/orders/v1?investor_id=${investorId}&status=PENDING&limit=2&cursor=${page.body.next_cursor}`, { token });
    expect(next.body.data[0].id).toBe(ids[0]);
    expect((await app.http("GET", "/api/orders/v1", { token: otherToken })).body).toEqual({ data: [], next_cursor: null });
  });
});
