import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { createDueInstallments } from "../../src/domains/orders/schedule.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor, placedOrder, today } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "970001");
  await createOpenScheme(app, "970002");
  ctx = await orderingInvestor(app, { mandate: true });
});

const place = (json: Record<string, unknown>) => placedOrder(app, ctx, json);
const get = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const ordered = (order: Record<string, unknown>) => {
  const { euin, sip, stp, swp, switch: sw, bank_account_id, sub_broker_arn } = order;
  return { euin, sip, stp, swp, switch: sw, bank_account_id, sub_broker_arn };
};
const none = { euin: null, sip: null, stp: null, swp: null, switch: null, bank_account_id: null, sub_broker_arn: null };

describe("GET /api/orders/v1/{id} returns what was ordered", () => {
  it("a switch's target, the sip, stp and swp plans, euin, sub-broker and bank account, in the request's shapes", async () => {
    const plan = { frequency: "MONTHLY", start_date: today(), installments: 6 };
    const sip = { ...plan, installment_day: 5 };
    const bank = (await app.http("GET", `/api/investors/v1/${ctx.investorId}`, { token: ctx.token })).body.bank_accounts[0].id;
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ order_type: "SWITCH", scheme_code: "970001", folio_no: "1/1", all_units: true, switch: { to_scheme_code: "970002" } }, { ...none, switch: { to_scheme_code: "970002", to_exchange_scheme_code: "BSE970002" } }],
      [{ order_type: "SIP", scheme_code: "970001", amount: 1000, sip }, { ...none, sip }],
      [{ order_type: "XSIP", scheme_code: "970001", amount: 1000, sip, mandate_id: ctx.mandateId }, { ...none, sip }],
      [{ order_type: "STP", scheme_code: "970001", folio_no: "1/1", amount: 1000, stp: { to_scheme_code: "970002", ...plan } }, { ...none, stp: { to_scheme_code: "970002", ...plan, to_exchange_scheme_code: "BSE970002" } }],
      [{ order_type: "SWP", scheme_code: "970001", folio_no: "1/1", units: 5, swp: { ...plan, frequency: "QUARTERLY" } }, { ...none, swp: { ...plan, frequency: "QUARTERLY" } }],
      [
        { order_type: "LUMPSUM_PURCHASE", scheme_code: "970001", amount: 1000, purchase_type: "FRESH", euin: { code: "E123456", declaration: false }, sub_broker_arn: "ARN-4242", bank_account_id: bank },
        { ...none, euin: { code: "E123456", declaration: false }, sub_broker_arn: "ARN-4242", bank_account_id: bank },
      ],
      [{ order_type: "REDEMPTION", scheme_code: "970001", folio_no: "1/1", units: 2 }, none],
    ];
    const ids: string[] = [];
    for (const [request, expected] of cases) {
      const id = await place(request);
      ids.push(id);
      expect(ordered(await get(id)), request.order_type as string).toEqual(expected);
    }
    // The list shows the same.
    const listed = (await app.http("GET", "/api/orders/v1?limit=100", { token: ctx.token })).body.data as Array<Record<string, unknown>>;
    for (const [i, [, expected]] of cases.entries()) {
      expect(ordered(listed.find((o) => o.id === ids[i])!)).toEqual(expected);
    }
  });

  it("a top-up names its SIP; an installment shows its registration's plan", async () => {
    const sip = { frequency: "WEEKLY", start_date: today(), installments: 3, installment_day: 1 };
    const registration = await place({ order_type: "SIP", scheme_code: "970001", amount: 1000, sip });
    await runTask(app, dispatchOrder, { order_id: registration });
    const topUp = await place({ order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: registration } });
    expect(await get(topUp)).toMatchObject({ ...none, scheme_code: "970001", sip: { sip_order_id: registration } });

    await createDueInstallments(app.prisma, today());
    const child = await app.prisma.order.findFirstOrThrow({ where: { parentOrderId: registration } });
    expect(await get(child.id)).toMatchObject({ parent_order_id: registration, installment_no: 1, sip });
  });

  it("a stored key the schema does not know is dropped, not a failed read", async () => {
    const id = await place({ order_type: "SWITCH", scheme_code: "970001", folio_no: "1/1", units: 1, switch: { to_scheme_code: "970002" } });
    await app.prisma.order.update({ where: { id }, data: { details: { switch: { to_scheme_code: "970002", legacy: true }, note: "x" } } });
    const res = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(res.status).toBe(200);
    expect(ordered(res.body)).toEqual({ ...none, switch: { to_scheme_code: "970002", to_exchange_scheme_code: "BSE970002" } });
  });

  it("a stored details row that does not fit its schema: the fields that fit are shown, one warning names the paths, never a 500", async () => {
    const sip = { frequency: "WEEKLY", start_date: today(), installments: 2, installment_day: 1 };
    const id = await place({ order_type: "SIP", scheme_code: "970001", amount: 1000, sip, euin: { code: "E654321", declaration: false } });
    await runTask(app, dispatchOrder, { order_id: id });
    // As an older version, or a hand edit, could have left it: a frequency the schema does not know.
    await app.prisma.$executeRawUnsafe(
      `UPDATE orders SET details = $2::jsonb WHERE id = $1`,
      id,
      JSON.stringify({ euin: { code: "E654321", declaration: false }, sip: { ...sip, frequency: "FORTNIGHTLY", installments: "two" } }),
    );
    const warnings = () => app.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40 && l.order_id === id);

    const res = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(res.status, res.text).toBe(200);
    expect(ordered(res.body)).toEqual({ ...none, euin: { code: "E654321", declaration: false } });
    const listed = await app.http("GET", "/api/orders/v1?limit=100", { token: ctx.token });
    expect(listed.status, listed.text).toBe(200);
    expect(ordered((listed.body.data as Array<Record<string, unknown>>).find((o) => o.id === id)!)).toEqual({ ...none, euin: { code: "E654321", declaration: false } });
    // The installment job still makes the due installment (the schedule was written at acceptance).
    expect(await createDueInstallments(app.prisma, today(), app.services.logger)).toBeGreaterThanOrEqual(1);
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(1);

    expect(warnings().length).toBeGreaterThanOrEqual(3);
    for (const line of warnings()) {
      expect(line).toEqual({
        level: 40, time: expect.any(String), msg: "stored order details do not fit their schema; those fields are left out",
        order_id: id, invalid_paths: ["sip.frequency", "sip.installments"],
      });
    }
    expect(app.logs.join("\n")).not.toMatch(/FORTNIGHTLY|"two"/);
  });
});

describe("GET /api/orders/v1/{id} reads the order with its latest payment and pause in one statement", () => {
  it("answers the latest payment (highest id) and the latest pause (last asked), as the list does", async () => {
    const sip = { frequency: "MONTHLY", start_date: today(), installments: 6, installment_day: 5 };
    const id = await place({ order_type: "XSIP", scheme_code: "970001", amount: 1000, sip, mandate_id: ctx.mandateId });
    expect(await get(id)).toMatchObject({ payment_id: null, pause: null });
    const order = await app.prisma.order.findUniqueOrThrow({ where: { id } });
    const payment = (pid: string) => ({ id: pid, distributorId: order.distributorId, investorId: order.investorId, orderId: id, mode: "NETBANKING", amount: "1000.00", status: "PENDING", details: {} });
    await app.prisma.payment.createMany({ data: [payment("pay_0002"), payment("pay_0001")] });
    const pause = (pid: string, requestedAt: string, status: string) => ({
      id: pid, orderId: id, distributorId: order.distributorId, installments: 1, fromInstallmentNo: 2, addedFromNo: 7,
      fromDate: new Date("2026-01-05"), untilDate: new Date("2026-01-05"), status, requestedAt: new Date(requestedAt),
    });
    await app.prisma.orderPause.createMany({ data: [pause("pse_b", "2026-01-01T00:00:00Z", "RESUMED"), pause("pse_a", "2026-01-02T00:00:00Z", "CONFIRMED")] });

    const view = await get(id);
    expect(view).toMatchObject({ payment_id: "pay_0002", pause: { id: "pse_a", status: "CONFIRMED", installments: 1 } });
    const listed = (await app.http("GET", "/api/orders/v1?limit=100", { token: ctx.token })).body.data as Array<Record<string, unknown>>;
    expect(view).toEqual(listed.find((o) => o.id === id));
  });

  it("another distributor's order is 404 with the error envelope", async () => {
    const id = await place({ order_type: "LUMPSUM_PURCHASE", scheme_code: "970001", amount: 1000, purchase_type: "FRESH" });
    const answer = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.otherToken });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ code: "NOT_FOUND" });
  });
});
