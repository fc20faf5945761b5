import { beforeAll, describe, expect, it } from "vitest";
import { cancelOrderAtExchange } from "../../src/domains/orders/jobs/cancel-at-exchange.js";
import { createInstallments } from "../../src/domains/orders/jobs/create-installments.js";
import { createDueInstallments, installmentDates } from "../../src/domains/orders/schedule.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, dayPlus, eventNames, orderingInvestor, today } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "940001");
  await createOpenScheme(app, "940002");
  ctx = await orderingInvestor(app, { mandate: true });
});

describe("installmentDates", () => {
  it("monthly on the installment day, from the first such day on or after the start date", () => {
    expect(installmentDates({ frequency: "MONTHLY", startDate: "2026-11-22", installments: 3, installmentDay: 5 })).toEqual(["2026-12-05", "2027-01-05", "2027-02-05"]);
    expect(installmentDates({ frequency: "MONTHLY", startDate: "2026-11-03", installments: 2, installmentDay: 5 })).toEqual(["2026-11-05", "2026-12-05"]);
    expect(installmentDates({ frequency: "MONTHLY", startDate: "2026-11-05", installments: 1, installmentDay: 5 })).toEqual(["2026-11-05"]);
  });

  it("quarterly, weekly, and month ends clamped to the month's last day", () => {
    expect(installmentDates({ frequency: "QUARTERLY", startDate: "2026-11-22", installments: 3, installmentDay: 28 })).toEqual(["2026-11-28", "2027-02-28", "2027-05-28"]);
    expect(installmentDates({ frequency: "WEEKLY", startDate: "2026-12-29", installments: 3 })).toEqual(["2026-12-29", "2027-01-05", "2027-01-12"]);
    expect(installmentDates({ frequency: "MONTHLY", startDate: "2027-01-31", installments: 4 })).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
  });
});

const registration = (json: Record<string, unknown>) => acceptedOrder(app, ctx, json);

const installments = (orderId: string) =>
  app.prisma.orderInstallment.findMany({ where: { orderId }, orderBy: { installmentNo: "asc" } });

describe("SIP-type registrations", () => {
  it("ACCEPTED means registered: the schedule is stored, and the registration itself carries no payment", async () => {
    const id = await registration({
      order_type: "XSIP", scheme_code: "940001", amount: 1500, mandate_id: ctx.mandateId,
      sip: { frequency: "WEEKLY", start_date: today(), installments: 4, installment_day: 1 },
    });
    const order = (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
    expect(order).toMatchObject({ status: "ACCEPTED", payment_status: "NOT_REQUIRED", payment_id: null });
    const listed = await app.http("GET", `/api/orders/v1/${id}/installments`, { token: ctx.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data[1]).toEqual({ installment_no: 2, due_date: dayPlus(7), amount: 1500, units: null, status: "SCHEDULED", order_id: null });
    expect((await app.http("GET", `/api/orders/v1/${id}/installments`, { token: ctx.otherToken })).status).toBe(404);
    const rows = await installments(id);
    expect(rows.map((r) => [r.installmentNo, r.dueDate.toISOString().slice(0, 10), r.amount?.toFixed(2), r.status])).toEqual([
      [1, today(), "1500.00", "SCHEDULED"], [2, dayPlus(7), "1500.00", "SCHEDULED"], [3, dayPlus(14), "1500.00", "SCHEDULED"], [4, dayPlus(21), "1500.00", "SCHEDULED"],
    ]);
  });

  it("turns due installments into child orders once: XSIP debited by mandate, SIP UNPAID, SWP without payment", async () => {
    const xsip = await registration({
      order_type: "XSIP", scheme_code: "940001", amount: 2000, mandate_id: ctx.mandateId,
      sip: { frequency: "WEEKLY", start_date: today(), installments: 3, installment_day: 1 },
    });
    const sip = await registration({ order_type: "SIP", scheme_code: "940001", amount: 1000, sip: { frequency: "WEEKLY", start_date: today(), installments: 2, installment_day: 1 } });
    const swp = await registration({ order_type: "SWP", scheme_code: "940001", folio_no: "777/1", units: 10.5, swp: { frequency: "WEEKLY", start_date: today(), installments: 2 } });

    await runTask(app, createInstallments, {});
    await createDueInstallments(app.prisma, today());
    const xsipRows = await installments(xsip);
    expect(xsipRows.map((r) => r.status)).toEqual(["CREATED", "SCHEDULED", "SCHEDULED"]);

    const child = (await app.http("GET", `/api/orders/v1/${xsipRows[0]!.childOrderId}`, { token: ctx.token })).body;
    const parent = await app.prisma.order.findUniqueOrThrow({ where: { id: xsip } });
    expect(child).toMatchObject({
      order_type: "XSIP", status: "ACCEPTED", payment_status: "PENDING", payment_id: expect.stringMatching(/^pay_/), parent_order_id: xsip, installment_no: 1,
      amount: 2000, scheme_code: "940001", mandate_id: ctx.mandateId, exchange_order_number: `${parent.exchangeOrderNumber}-1`, provider_remark: "INSTALLMENT 1 OF 3",
    });
    expect(await eventNames(app, child.id)).toEqual(["order.accepted"]);
    const payment = (await app.http("GET", `/api/payments/v1/${child.payment_id}`, { token: ctx.token })).body;
    expect(payment).toMatchObject({ mode: "MANDATE", amount: 2000, status: "PENDING", order_id: child.id });

    const sipChild = (await installments(sip))[0]!.childOrderId!;
    expect((await app.http("GET", `/api/orders/v1/${sipChild}`, { token: ctx.token })).body).toMatchObject({ payment_status: "UNPAID", payment_id: null });
    const swpChild = await app.prisma.order.findUniqueOrThrow({ where: { id: (await installments(swp))[0]!.childOrderId! } });
    expect([swpChild.paymentStatus, swpChild.units?.toFixed(3), swpChild.folioNo]).toEqual(["NOT_REQUIRED", "10.500", "777/1"]);

    // A week later the second installment comes; the first is not created again.
    await createDueInstallments(app.prisma, dayPlus(7));
    expect((await installments(xsip)).map((r) => r.status)).toEqual(["CREATED", "CREATED", "SCHEDULED"]);
    expect(await app.prisma.order.count({ where: { parentOrderId: xsip } })).toBe(2);
    // An installment is allotted like any order.
    expect((await app.http("GET", `/api/simulation/orders/v1/${child.id}/allot?nav=20`, { token: ctx.token })).status).toBe(200);
    expect((await app.http("GET", `/api/orders/v1/${child.id}`, { token: ctx.token })).body).toMatchObject({ status: "ALLOTTED", units: 100 });
  });

  it("stops a cancelled registration: none created while the cancellation is pending; cancelled when the exchange confirms", async () => {
    const id = await registration({
      order_type: "STP", scheme_code: "940001", folio_no: "555/2", amount: 3000,
      stp: { to_scheme_code: "940002", frequency: "MONTHLY", start_date: today(), installments: 6 },
    });
    expect((await installments(id)).every((r) => r.status === "SCHEDULED")).toBe(true);
    expect((await app.http("POST", `/api/orders/v1/${id}/cancel`, { token: ctx.token })).body).toMatchObject({ status: "ACCEPTED", cancellation: { status: "PENDING" } });
    // The first installment is due today: while the exchange has not answered, it is not created.
    await createDueInstallments(app.prisma, dayPlus(400));
    expect((await installments(id)).every((r) => r.status === "SCHEDULED")).toBe(true);
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(0);
    await runTask(app, cancelOrderAtExchange, { order_id: id });
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED" } });
    expect((await installments(id)).map((r) => r.status)).toEqual(Array(6).fill("CANCELLED"));
    await createDueInstallments(app.prisma, dayPlus(400));
    expect(await app.prisma.order.count({ where: { parentOrderId: id } })).toBe(0);
  });

  it("a rejected registration gets no schedule", async () => {
    const id = await registration({
      order_type: "SIP", scheme_code: "940001", amount: 1000, remarks: "SIM:REJECT",
      sip: { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 10 },
    });
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("REJECTED");
    expect(await installments(id)).toEqual([]);
  });

  it("a top-up of an XSIP is debited from the XSIP's mandate when the exchange accepts it", async () => {
    const xsip = await registration({
      order_type: "XSIP", scheme_code: "940001", amount: 1000, mandate_id: ctx.mandateId,
      sip: { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 10 },
    });
    const topUp = await registration({ order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: xsip } });
    expect((await app.http("GET", `/api/orders/v1/${topUp}`, { token: ctx.token })).body).toMatchObject({
      order_type: "SIP_TOPUP", status: "ACCEPTED", scheme_code: "940001", mandate_id: ctx.mandateId, payment_status: "PENDING", payment_id: expect.stringMatching(/^pay_/),
    });
  });
});
