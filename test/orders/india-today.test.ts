import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { createInstallments } from "../../src/domains/orders/jobs/create-installments.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

/** 19:00 UTC on 23 November is already 00:30 on 24 November in India. */
const EVENING_IN_UTC = new Date("2026-11-23T19:00:00Z");

beforeAll(async () => {
  await createOpenScheme(app, "960001");
  ctx = await orderingInvestor(app);
});

// Only Date is faked: timers stay real, so the database, HTTP and Prisma run as usual.
const fixClock = (at: Date) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
};
afterEach(() => vi.useRealTimers());

const sip = (startDate: string) => ({
  investment_account_id: ctx.account, order_type: "SIP", scheme_code: "960001", amount: 1000,
  sip: { frequency: "WEEKLY", start_date: startDate, installments: 2, installment_day: 1 },
});

describe("todayInIndia", () => {
  it("is the date in Asia/Kolkata (UTC+05:30)", () => {
    expect(todayInIndia(new Date("2026-11-22T18:29:59.999Z"))).toBe("2026-11-22");
    expect(todayInIndia(new Date("2026-11-22T18:30:00Z"))).toBe("2026-11-23");
    expect(todayInIndia(new Date("2026-12-31T20:00:00Z"))).toBe("2027-01-01");
    fixClock(EVENING_IN_UTC);
    expect(todayInIndia()).toBe("2026-11-24");
  });
});

describe("every today is India's (clock fixed at 2026-11-23T19:00Z, 24 November in India)", () => {
  it("a start date of 23 November is in the past; 24 November is today", async () => {
    fixClock(EVENING_IN_UTC);
    const past = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: sip("2026-11-23") });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "sip.start_date", message: "must be today or later", reason: "date_in_past" }] });
    expect(await app.prisma.order.count({ where: { investorId: ctx.investorId } })).toBe(0);

    const todayRes = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: sip("2026-11-24") });
    expect(todayRes.status).toBe(201);
  });

  it("a mandate cannot start on 23 November", async () => {
    fixClock(EVENING_IN_UTC);
    const investor = (await app.http("GET", `/api/investors/v1/${ctx.investorId}`, { token: ctx.token })).body;
    const res = await app.http("POST", "/api/mandates/v1", {
      token: ctx.token,
      json: { investor_id: ctx.investorId, bank_account_id: investor.bank_accounts[0].id, mandate_type: "ENACH", amount_limit: 1000, start_date: "2026-11-23" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: "start_date", message: "must be today or later", reason: "date_in_past" })]);
  });

  it("the first installment due on 24 November is created, and an allotment defaults to 24 November", async () => {
    fixClock(EVENING_IN_UTC);
    const { id } = (await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: sip("2026-11-24") })).body;
    await runTask(app, dispatchOrder, { order_id: id });
    await runTask(app, createInstallments, {});
    const [first, second] = await app.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" } });
    expect([first!.dueDate.toISOString(), first!.status]).toEqual(["2026-11-24T00:00:00.000Z", "CREATED"]);
    expect([second!.dueDate.toISOString(), second!.status]).toEqual(["2026-12-01T00:00:00.000Z", "SCHEDULED"]);

    const allot = await app.http("GET", `/api/simulation/orders/v1/${first!.childOrderId}/allot`, { token: ctx.token });
    expect(allot.status).toBe(200);
    expect((await app.http("GET", `/api/orders/v1/${first!.childOrderId}`, { token: ctx.token })).body).toMatchObject({ status: "ALLOTTED", allotment_date: "2026-11-24" });
  });

  it("a date of birth of 24 November is not in the future; 25 November is", async () => {
    fixClock(EVENING_IN_UTC);
    const future = { path: "primary_holder.date_of_birth", message: "must not be in the future", reason: "date_in_future" };
    const withBirth = (dateOfBirth: string) => {
      const body = investorBody();
      return app.http("POST", "/api/investors/v1", { token: ctx.token, json: { ...body, primary_holder: { ...body.primary_holder, date_of_birth: dateOfBirth } } });
    };
    const today = await withBirth("2026-11-24");
    expect(today.status).toBe(400); // a newborn is not an adult investor, but the date itself is fine
    expect(today.body.error.details).not.toContainEqual(expect.objectContaining(future));
    expect((await withBirth("2026-11-25")).body.error.details).toContainEqual(expect.objectContaining(future));
  });
});
