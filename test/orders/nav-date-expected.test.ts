import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import { exchangeCalendar, uncoveredYear, warnIfCalendarEnds } from "../../src/domains/masters/exchange-calendar.js";
import { checkCalendarJob } from "../../src/domains/masters/jobs/check-calendar.js";
import { getOrderById } from "../../src/domains/orders/orders.repo.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { createPayment } from "../../src/domains/payments/payments.service.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createScheme, orderingInvestor, placedOrder, today } from "../helpers/orders.js";
import { pendingUpiPayment } from "../helpers/payments.js";

/**
 * nav_date_expected end to end: set in the move that fixes it, from the clock of that move. The clock is
 * fixed (only Date is faked; the server runs in this process) at moments before the real time the tests
 * run, so tokens stay valid; the rule itself is covered by nav-date.test.ts's table.
 */
const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

/** An instant given in India time. */
const ist = (local: string) => new Date(`${local.replace(" ", "T")}+05:30`);
const fixClock = (at: Date) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
};
afterEach(() => vi.useRealTimers());

beforeAll(async () => {
  // The sandbox seed loads the exchange's holiday calendar through calendar:import's importer.
  const { seedSandbox } = await import("../../src/seed/sandbox.js");
  await seedSandbox(app.services);
  await createScheme(app, "970001", { category: "Equity Scheme - Large Cap Fund" });
  await createScheme(app, "970002", { category: "Debt Scheme - Liquid Fund" });
  await createScheme(app, "970003", { category: "Equity Scheme - Flexi Cap Fund", isinGrowth: "INF970003001" });
  await app.prisma.exchangeScheme.create({
    data: {
      code: "970003-DP", isin: "INF970003001", name: "Test Overnight", schemeType: "OVERNIGHT", transactionMode: "BOTH",
      purchaseAllowed: true, redemptionAllowed: true, sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true,
      purchaseCutOff: "12:00", redemptionCutOff: "14:00",
    },
  });
  ctx = await orderingInvestor(app);
  const { distributorId } = await app.prisma.investor.findUniqueOrThrow({ where: { id: ctx.investorId }, select: { distributorId: true } });
  for (const schemeCode of ["970001", "970003"]) {
    await app.prisma.holdingPosition.create({
      data: {
        distributorId, registrar: "CAMS", amcCode: "TEST_AMC", folioNo: "5566/1", registrarSchemeCode: `T${schemeCode}`, schemeCode,
        schemeName: "Held", units: "500.000", balanceDate: new Date("2026-11-21"), holdingNature: "SINGLE", feedFileId: "hff_test",
      },
    });
  }
});

const view = async (id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const capture = (paymentId: string) => app.http("GET", `/api/simulation/payments/v1/${paymentId}/capture`, { token: ctx.token });

/** An ACCEPTED lump sum with a PENDING payment, captured at `at` (India time); the order's view. */
async function capturedAt(schemeCode: string, at: string, exchangeSchemeCode?: string) {
  const { orderId, paymentId } = await pendingUpiPayment(app, ctx, schemeCode, 1000);
  if (exchangeSchemeCode) await app.prisma.order.update({ where: { id: orderId }, data: { exchangeSchemeCode } });
  expect((await view(orderId)).nav_date_expected).toBeNull();
  fixClock(ist(at));
  expect((await capture(paymentId)).status).toBe(200);
  vi.useRealTimers();
  return view(orderId);
}

describe("the seed's calendar", () => {
  it("holds the exchange's 2026 holidays", async () => {
    const rows = await app.prisma.exchangeHoliday.findMany({ orderBy: { date: "asc" } });
    expect(rows).toHaveLength(15);
    expect(rows.map((r) => r.date.toISOString().slice(0, 10))).toContain("2026-11-24");
  });
});

describe("the calendar's coverage warning", () => {
  it("warns while the next 60 days reach a year with no holidays loaded", async () => {
    const warn = vi.fn();
    expect(await warnIfCalendarEnds(app.prisma, { warn }, "2026-10-01")).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    expect(await warnIfCalendarEnds(app.prisma, { warn }, "2026-11-27")).toBe(2027);
    expect(warn).toHaveBeenCalledWith({ uncovered_year: 2027, horizon_days: 60 }, expect.stringContaining("calendar:import"));
  });

  it("the daily job logs it for today in India", async () => {
    const expected = uncoveredYear(await exchangeCalendar(app.prisma), todayInIndia(), 60);
    const warn = vi.fn();
    await checkCalendarJob({}, { services: app.services, log: { warn } as never, job: {} as never });
    if (expected === null) expect(warn).not.toHaveBeenCalled();
    else expect(warn).toHaveBeenCalledWith({ uncovered_year: expected, horizon_days: 60 }, expect.any(String));
  });
});

describe("a purchase's nav_date_expected, from its payment's capture", () => {
  it("is null until the capture, then the day's NAV before the cut-off", async () => {
    const order = await capturedAt("970001", "2026-11-26 14:59");
    expect(order).toMatchObject({ payment_status: "PAID", nav_date_expected: "2026-11-26", allotment_date: null });
  });

  it("Friday evening: Monday", async () => {
    expect((await capturedAt("970001", "2026-11-27 15:00")).nav_date_expected).toBe("2026-11-30");
  });

  it("on the exchange's holiday (from the loaded calendar): the next business day", async () => {
    expect((await capturedAt("970001", "2026-11-24 10:00")).nav_date_expected).toBe("2026-11-25");
  });

  it("a liquid fund (our scheme master's category) on a Monday morning: Sunday's NAV", async () => {
    expect((await capturedAt("970002", "2026-11-23 10:00")).nav_date_expected).toBe("2026-11-22");
  });

  it("an order with an exchange code follows the exchange's scheme type and cut-off (OVERNIGHT, 12:00)", async () => {
    expect((await capturedAt("970003", "2026-11-26 11:00", "970003-DP")).nav_date_expected).toBe("2026-11-25");
    expect((await capturedAt("970003", "2026-11-26 12:30", "970003-DP")).nav_date_expected).toBe("2026-11-26");
    // Under its other code, whose row names no scheme type, it is what our master says, an equity fund: 15:00, the day's own NAV.
    expect((await capturedAt("970003", "2026-11-26 12:30", "BSE970003")).nav_date_expected).toBe("2026-11-26");
    expect((await capturedAt("970003", "2026-11-26 11:00", "BSE970003")).nav_date_expected).toBe("2026-11-26");
  });

  it("a SIP registration has none; its installment gets one when paid", async () => {
    const sip = await acceptedOrder(app, ctx, { order_type: "SIP", scheme_code: "970001", amount: 1000, sip: { frequency: "WEEKLY", start_date: today(), installments: 2, installment_day: 1 } });
    expect(await view(sip)).toMatchObject({ status: "ACCEPTED", nav_date_expected: null });
    const next = await app.http("GET", `/api/simulation/orders/v1/${sip}/next-installment`, { token: ctx.token });
    expect(next.status).toBe(200);
    const childId = next.body.data as string;
    expect(await view(childId)).toMatchObject({ status: "ACCEPTED", payment_status: "UNPAID", nav_date_expected: null });
    const payment = await app.prisma.$transaction(async (tx) => createPayment(tx, { order: await getOrderById(tx, childId), mode: "UPI" }));
    fixClock(ist("2026-11-25 16:30"));
    expect((await capture(payment.id)).status).toBe(200);
    vi.useRealTimers();
    expect(await view(childId)).toMatchObject({ payment_status: "PAID", nav_date_expected: "2026-11-26" });
    expect((await view(sip)).nav_date_expected).toBeNull();
  });
});

describe("a redemption's, switch's or SWP installment's nav_date_expected, from the exchange's acceptance", () => {
  /** Places the order now and dispatches it at `at` (India time); the order's view. */
  async function acceptedAt(json: Record<string, unknown>, at: string) {
    const id = await placedOrder(app, ctx, json);
    expect((await view(id)).nav_date_expected).toBeNull();
    fixClock(ist(at));
    await runTask(app, dispatchOrder, { order_id: id });
    vi.useRealTimers();
    return view(id);
  }

  it("a redemption accepted exactly at 15:00 on Friday: Monday", async () => {
    const order = await acceptedAt({ order_type: "REDEMPTION", scheme_code: "970001", folio_no: "5566/1", units: 10 }, "2026-11-27 15:00");
    expect(order).toMatchObject({ status: "ACCEPTED", nav_date_expected: "2026-11-30" });
  });

  it("a redemption before the cut-off: the same day; the exchange row's earlier cut-off (14:00) moves it to the next", async () => {
    expect((await acceptedAt({ order_type: "REDEMPTION", scheme_code: "970001", folio_no: "5566/1", amount: 1000 }, "2026-11-26 14:30")).nav_date_expected).toBe("2026-11-26");
    const id = await placedOrder(app, ctx, { order_type: "REDEMPTION", scheme_code: "970003", folio_no: "5566/1", amount: 1000 });
    await app.prisma.order.update({ where: { id }, data: { exchangeSchemeCode: "970003-DP" } });
    fixClock(ist("2026-11-26 14:30"));
    await runTask(app, dispatchOrder, { order_id: id });
    vi.useRealTimers();
    expect((await view(id)).nav_date_expected).toBe("2026-11-27");
  });

  it("a switch: the switch-out's date", async () => {
    const order = await acceptedAt({ order_type: "SWITCH", scheme_code: "970001", folio_no: "5566/1", units: 5, switch: { to_scheme_code: "970002" } }, "2026-11-28 11:00");
    expect(order).toMatchObject({ status: "ACCEPTED", nav_date_expected: "2026-11-30" });
  });

  it("an SWP registration has none; each installment gets its date when the exchange creates it", async () => {
    const swp = await acceptedOrder(app, ctx, { order_type: "SWP", scheme_code: "970001", folio_no: "5566/1", units: 1, swp: { frequency: "WEEKLY", start_date: today(), installments: 2 } });
    expect((await view(swp)).nav_date_expected).toBeNull();
    fixClock(ist("2026-11-23 18:00"));
    const next = await app.http("GET", `/api/simulation/orders/v1/${swp}/next-installment`, { token: ctx.token });
    vi.useRealTimers();
    expect(next.status).toBe(200);
    expect(await view(next.body.data as string)).toMatchObject({ status: "ACCEPTED", nav_date_expected: "2026-11-25" });
  });
});
