import { beforeAll, describe, expect, it } from "vitest";
import { syncOrdersWithExchange } from "../../src/domains/orders/jobs/sync-exchange.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, dayPlus, eventNames, orderingInvestor, placedOrder, today } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "980001");
  await createOpenScheme(app, "980002");
  ctx = await orderingInvestor(app, { mandate: true });
});

const sim = (path: string, token = ctx.token) => app.http("GET", `/api/simulation/orders/v1/${path}`, { token });
const get = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const installments = (orderId: string) => app.prisma.orderInstallment.findMany({ where: { orderId }, orderBy: { installmentNo: "asc" } });

const placed = (json: Record<string, unknown>) => placedOrder(app, ctx, { scheme_code: "980001", ...json });
const accepted = (json: Record<string, unknown>) => acceptedOrder(app, ctx, { scheme_code: "980001", ...json });

const monthly = (installments: number) => ({ frequency: "MONTHLY", start_date: dayPlus(1), installments });
const REGISTRATIONS: Record<string, () => Record<string, unknown>> = {
  SIP: () => ({ order_type: "SIP", amount: 1000, sip: { ...monthly(3), installment_day: 10 } }),
  XSIP: () => ({ order_type: "XSIP", amount: 1500, mandate_id: ctx.mandateId, sip: { ...monthly(3), installment_day: 10 } }),
  STP: () => ({ order_type: "STP", folio_no: "881/1", amount: 2000, stp: { to_scheme_code: "980002", ...monthly(3) } }),
  SWP: () => ({ order_type: "SWP", folio_no: "881/1", units: 12.5, swp: monthly(3) }),
};

describe("allot on a SIP-type registration", () => {
  it.each(Object.keys(REGISTRATIONS))("%s: 409 INVALID_STATE, the registration and its schedule untouched", async (type) => {
    const id = await accepted(REGISTRATIONS[type]!());
    const res = await sim(`${id}/allot`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: "INVALID_STATE", message: `Order ${id} is a ${type} registration: it is never allotted itself, its installments are` },
    });
    expect(await get(id)).toMatchObject({ status: "ACCEPTED", nav: null, allotment_date: null });
    expect((await installments(id)).map((r) => r.status)).toEqual(["SCHEDULED", "SCHEDULED", "SCHEDULED"]);
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
    expect(await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "ORDER", reference: id } } })).toMatchObject({ status: "ACCEPTED" });
  });

  it("a SIP stays open to top-ups after a refused allot", async () => {
    const id = await accepted(REGISTRATIONS.SIP!());
    expect((await sim(`${id}/allot`)).status).toBe(409);
    const topUp = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: id } } });
    expect(topUp.status, topUp.text).toBe(201);
  });

  it("the allotment statement cannot allot (or reject) a registration either", async () => {
    const sip = await accepted(REGISTRATIONS.SIP!());
    const swp = await accepted(REGISTRATIONS.SWP!());
    const row = { folioNo: "881/1", schemeCode: "980001", nav: "10.0000", units: "100.000", amount: "1000.00", allotmentDate: today() };
    await app.services.sandboxExchange!.reportAllotment(sip, { ...row, valid: true, remark: "ALLOTTED" });
    await app.services.sandboxExchange!.reportAllotment(swp, { ...row, valid: false, remark: "UNITS NOT AVAILABLE" });
    await runTask(app, syncOrdersWithExchange, {});
    for (const id of [sip, swp]) {
      expect(await get(id)).toMatchObject({ status: "ACCEPTED", nav: null, failure_code: null });
      expect(await eventNames(app, id)).toEqual(["order.accepted"]);
      expect((await installments(id)).every((r) => r.status === "SCHEDULED")).toBe(true);
    }
  });
});

describe("GET /api/simulation/orders/v1/{id}/next-installment", () => {
  it.each(Object.keys(REGISTRATIONS))("%s: creates the next installment now, as the exchange would on its date", async (type) => {
    const id = await accepted(REGISTRATIONS[type]!());
    const parent = await app.prisma.order.findUniqueOrThrow({ where: { id } });
    const res = await sim(`${id}/next-installment`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Installment 1 of 3 created", data: expect.stringMatching(/^ord_/) });
    const childId = res.body.data as string;
    expect(childId).not.toBe(id);

    const child = await get(childId);
    expect(child).toMatchObject({
      order_type: type, status: "ACCEPTED", parent_order_id: id, installment_no: 1, scheme_code: "980001",
      exchange_order_number: `${parent.exchangeOrderNumber}-1`, provider_remark: "INSTALLMENT 1 OF 3",
      payment_status: type === "XSIP" ? "PENDING" : type === "SIP" ? "UNPAID" : "NOT_REQUIRED",
    });
    if (type === "XSIP") {
      expect((await app.http("GET", `/api/payments/v1/${child.payment_id}`, { token: ctx.token })).body).toMatchObject({ mode: "MANDATE", amount: 1500, status: "PENDING" });
    }
    expect(await eventNames(app, childId)).toEqual(["order.accepted"]);
    const rows = await installments(id);
    expect(rows.map((r) => [r.status, r.childOrderId])).toEqual([["CREATED", childId], ["SCHEDULED", null], ["SCHEDULED", null]]);
    expect(await get(id)).toMatchObject({ status: "ACCEPTED" });

    // The installment is allotted like any order; the next call takes the next installment.
    const allot = await sim(`${childId}/allot?nav=20`);
    expect(allot.status, allot.text).toBe(200);
    expect((await get(childId)).status).toBe("ALLOTTED");
    const second = await sim(`${id}/next-installment`);
    expect(second.body).toMatchObject({ message: "Installment 2 of 3 created" });
    expect((await get(second.body.data)).installment_no).toBe(2);
  });

  it("no installment left: 409; the hourly job does not create one again", async () => {
    const id = await accepted({ order_type: "SIP", amount: 1000, sip: { ...monthly(1), installment_day: 10 } });
    expect((await sim(`${id}/next-installment`)).status).toBe(200);
    const none = await sim(`${id}/next-installment`);
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ code: "INVALID_STATE", message: `Registration ${id} has no scheduled installment left` });
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(1);
  });

  it("refuses what is not an ACCEPTED registration, and other distributors' and unknown ids", async () => {
    const lumpsum = await accepted({ order_type: "LUMPSUM_PURCHASE", amount: 1000, purchase_type: "FRESH" });
    const notRegistration = await sim(`${lumpsum}/next-installment`);
    expect(notRegistration.status).toBe(409);
    expect(notRegistration.body.error).toMatchObject({ code: "INVALID_STATE", message: `Order ${lumpsum} is a LUMPSUM_PURCHASE, not a SIP, XSIP, STP or SWP registration` });

    const registration = await accepted(REGISTRATIONS.SWP!());
    const child = (await sim(`${registration}/next-installment`)).body.data;
    const ofChild = await sim(`${child}/next-installment`);
    expect(ofChild.status).toBe(409);
    expect(ofChild.body.error.message).toBe(`Order ${child} is an installment of ${registration}, not a registration`);

    const held = await accepted({ ...REGISTRATIONS.SIP!(), remarks: "SIM:HOLD" });
    const pending = await sim(`${held}/next-installment`);
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toBe(`Registration ${held} is PENDING; only an ACCEPTED registration has installments to create`);

    const cancelled = await accepted(REGISTRATIONS.STP!());
    await app.http("POST", `/api/orders/v1/${cancelled}/cancel`, { token: ctx.token });
    expect((await sim(`${cancelled}/next-installment`)).status).toBe(409);

    expect((await sim(`${registration}/next-installment`, ctx.otherToken)).status).toBe(404);
    expect((await sim("ord_unknown/next-installment")).status).toBe(404);
    expect((await app.http("GET", `/api/simulation/orders/v1/${registration}/next-installment`)).status).toBe(401);
    expect(await app.prisma.order.count({ where: { parentOrderId: { in: [held, cancelled] } } })).toBe(0);
  });

  it("two calls at once create two different installments", async () => {
    const id = await accepted(REGISTRATIONS.XSIP!());
    const [a, b] = await Promise.all([sim(`${id}/next-installment`), sim(`${id}/next-installment`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data).not.toBe(b.body.data);
    expect((await installments(id)).map((r) => r.status)).toEqual(["CREATED", "CREATED", "SCHEDULED"]);
  });
});
