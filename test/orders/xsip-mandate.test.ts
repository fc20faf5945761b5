import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { createOpenScheme, dayPlus, orderingInvestor, today } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
/** A REGISTERED mandate valid from 10 days from now to 100 days from now. */
let windowed = "";

beforeAll(async () => {
  await createOpenScheme(app, "990001");
  ctx = await orderingInvestor(app, { mandate: true });
  const investor = (await app.http("GET", `/api/investors/v1/${ctx.investorId}`, { token: ctx.token })).body;
  const mandate = await app.http("POST", "/api/mandates/v1", {
    token: ctx.token,
    json: { investor_id: ctx.investorId, bank_account_id: investor.bank_accounts[0].id, mandate_type: "ENACH", amount_limit: 50000, start_date: dayPlus(10), end_date: dayPlus(100) },
  });
  expect(mandate.status, mandate.text).toBe(201);
  windowed = mandate.body.id;
  expect((await app.http("GET", `/api/simulation/mandates/v1/${windowed}/register`, { token: ctx.token })).status).toBe(200);
});

const xsip = (mandateId: string, sip: Record<string, unknown>) =>
  app.http("POST", "/api/orders/v1/", {
    token: ctx.token,
    json: { investment_account_id: ctx.account, order_type: "XSIP", scheme_code: "990001", amount: 1000, mandate_id: mandateId, sip: { installment_day: 1, ...sip } },
  });
const weekly = (startDate: string, installments: number) => ({ frequency: "WEEKLY", start_date: startDate, installments });

describe("an XSIP's installments fall within its mandate's validity", () => {
  it("starting before the mandate does: 400 on sip.start_date, before_mandate_start; nothing written", async () => {
    const before = await app.prisma.order.count();
    const res = await xsip(windowed, weekly(dayPlus(9), 2));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(res.body.error.details).toEqual([
      { path: "sip.start_date", reason: "before_mandate_start", message: `must be on or after the mandate's start date ${dayPlus(10)}` },
    ]);
    expect(await app.prisma.order.count()).toBe(before);
  });

  it("starting after the mandate's end date: 400 on sip.start_date, after_mandate_end", async () => {
    const res = await xsip(windowed, weekly(dayPlus(101), 1));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "sip.start_date", reason: "after_mandate_end", message: `must be on or before the mandate's end date ${dayPlus(100)}` },
    ]);
  });

  it("installments running past the mandate's end date: 400 on sip.installments, beyond_mandate_end", async () => {
    // Weekly from day 10: the 13th installment falls on day 94, the 14th on day 101.
    const res = await xsip(windowed, weekly(dayPlus(10), 14));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      {
        path: "sip.installments",
        reason: "beyond_mandate_end",
        message: `installment 14 falls on ${dayPlus(101)}, after the mandate's end date ${dayPlus(100)} (at most 13 fit)`,
      },
    ]);
  });

  it("within the mandate's validity (its first and last days included) the XSIP is placed", async () => {
    expect((await xsip(windowed, weekly(dayPlus(10), 13))).status).toBe(201);
    expect((await xsip(windowed, weekly(dayPlus(100), 1))).status).toBe(201);
    // A mandate without an end date takes any length of plan.
    expect((await xsip(ctx.mandateId, { frequency: "MONTHLY", start_date: today(), installments: 1200, installment_day: 28 })).status).toBe(201);
  });
});
