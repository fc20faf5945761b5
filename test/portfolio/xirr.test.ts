import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/platform/lib/money.js";
import { daysBetween } from "../../src/domains/portfolio/calendar.js";
import { bisection, newton, xirr, xirrOutcome, type CashFlow } from "../../src/domains/portfolio/xirr.js";

/**
 * XIRR against references computed here independently: a slow bisection in 40-digit decimals on the same
 * Actual/365 equation, and cases known by hand (a year's doubling is 1.0) or from the spreadsheet's own
 * documentation (Excel's XIRR example: 0.373362535).
 */

const Precise = Decimal.clone({ precision: 40 });

function referenceXirr(flows: readonly CashFlow[]): number {
  const first = flows.map((f) => f.date).sort()[0]!;
  const terms = flows.map((f) => ({ years: new Precise(daysBetween(first, f.date)).dividedBy(365), amount: new Precise(f.amountPaise.toString()) }));
  const npv = (rate: Decimal) => terms.reduce((sum, t) => sum.plus(t.amount.dividedBy(rate.plus(1).pow(t.years))), new Precise(0));
  let lo = new Precise("-0.9999");
  let hi = new Precise("10000");
  const loSign = npv(lo).isPositive();
  for (let i = 0; i < 100; i++) {
    const mid = lo.plus(hi).dividedBy(2);
    if (npv(mid).isPositive() === loSign) lo = mid;
    else hi = mid;
  }
  return lo.plus(hi).dividedBy(2).toNumber();
}

const f = (date: string, rupees: number): CashFlow => ({ date, amountPaise: BigInt(Math.round(rupees * 100)) });

describe("xirr", () => {
  it.each([
    ["a year's doubling", [f("2023-01-01", -1000), f("2024-01-01", 2000)], 1],
    ["a year's halving", [f("2023-01-01", -1000), f("2024-01-01", 500)], -0.5],
    ["no gain", [f("2023-01-01", -1000), f("2024-01-01", 1000)], 0],
    ["10% over 366 days (Actual/365)", [f("2024-01-01", -1000), f("2025-01-01", 1100)], Math.pow(1.1, 365 / 366) - 1],
    ["Excel's XIRR example", [f("2008-01-01", -10000), f("2008-03-01", 2750), f("2008-10-30", 4250), f("2009-02-15", 3250), f("2009-04-01", 2750)], 0.373362535],
  ])("%s", (_name, flows, expected) => {
    expect(Math.abs(xirr(flows)! - expected)).toBeLessThan(1e-6);
    expect(Math.abs(referenceXirr(flows) - expected)).toBeLessThan(1e-6);
  });

  it.each([
    ["a monthly SIP valued today", [f("2024-01-05", -5000), f("2024-02-05", -5000), f("2024-03-05", -5000), f("2024-04-05", -5000), f("2024-05-05", -5000), f("2024-06-05", -5000), f("2025-01-10", 33_456.78)]],
    ["a SIP at a loss", [f("2024-01-05", -5000), f("2024-02-05", -5000), f("2024-03-05", -5000), f("2024-04-05", 13_000)]],
    ["a purchase, a partial redemption, a dividend and today's value", [f("2021-04-01", -100_000), f("2022-06-15", 40_000), f("2023-03-01", 1_234.56), f("2025-11-28", 110_000)]],
    ["flows out of date order", [f("2025-11-28", 110_000), f("2021-04-01", -100_000), f("2022-06-15", 40_000)]],
    ["a high return over 30 days", [f("2025-01-01", -1000), f("2025-01-31", 1500)]],
    ["a near-total loss (Newton leaves (-1, inf); bisection finds it)", [f("2024-01-01", -1000), f("2024-12-31", 1)]],
    ["a tiny investment against a large value", [f("2020-01-01", -0.01), f("2025-01-01", 1_000_000)]],
    ["the 7th day", [f("2025-01-01", -1000), f("2025-01-08", 1001)]],
  ])("%s: the 40-digit reference to 1e-6", (_name, flows) => {
    const reference = referenceXirr(flows);
    expect(Math.abs(xirr(flows)! - reference)).toBeLessThan(1e-6);
  });

  it.each([
    ["no flows", [], "no_sign_change"],
    ["only investments", [f("2024-01-01", -1000), f("2025-01-01", -1000)], "no_sign_change"],
    ["only receipts", [f("2024-01-01", 1000), f("2025-01-01", 1000)], "no_sign_change"],
    ["zeros and receipts", [f("2024-01-01", 0), f("2025-01-01", 1000)], "no_sign_change"],
    ["zeros and investments", [f("2024-01-01", -1000), f("2025-01-01", 0)], "no_sign_change"],
    ["6 days apart", [f("2025-01-01", -1000), f("2025-01-07", 1001)], "span_under_7_days"],
    ["a return beyond any rate", [f("2025-01-01", -1), f("2025-01-09", 1_000_000)], "no_solution"],
  ] as const)("the reason for %s: %s", (_name, flows, reason) => {
    expect(xirrOutcome(flows)).toEqual({ rate: null, reason });
  });

  it("the outcome of a meaningful XIRR has no reason", () => {
    expect(xirrOutcome([f("2023-01-01", -1000), f("2024-01-01", 2000)])).toEqual({ rate: 1, reason: null });
  });

  const terms = (flows: [number, number][]) => flows.map(([days, amount]) => ({ years: days / 365, amount }));
  it.each([
    ["a year's doubling", [[0, -1000], [365, 2000]], 1],
    ["two years' 21%", [[0, -1000], [730, 1210]], 0.1],
    ["a SIP", [[0, -100], [31, -100], [60, -100], [91, 330]], null],
    ["137x in 30 days", [[0, -1000], [30, 1500]], Math.pow(1.5, 365 / 30) - 1],
  ] as [string, [number, number][], number | null][])("Newton alone settles on %s", (_name, flows, expected) => {
    const rate = newton(terms(flows))!;
    expect(Math.abs(rate - (expected ?? bisection(terms(flows))!))).toBeLessThan(1e-9);
    expect(Math.abs(bisection(terms(flows))! - (expected ?? rate))).toBeLessThan(1e-9);
  });

  it("Newton alone fails where the first step leaves (-1, inf), or a step is not finite; bisection does not", () => {
    expect(newton(terms([[0, -1000], [365, 1]]))).toBeNull();
    expect(Math.abs(bisection(terms([[0, -1000], [365, 1]]))! + 0.999)).toBeLessThan(1e-9);
    expect(newton(terms([[0, 0], [365, 0]]))).toBeNull();
    // 1000 to 1 over two years: (1 + r)^2 = 0.001 has a root below -1 too, which Newton must not settle on.
    expect(newton(terms([[0, -1000], [730, 1]]))).toBeNull();
    expect(Math.abs(bisection(terms([[0, -1000], [730, 1]]))! - (Math.sqrt(0.001) - 1))).toBeLessThan(1e-9);
    // 3305 to 1000 over two years: Newton's first step from 10% lands by the root at 1 + r = -0.55 and would settle there.
    expect(newton(terms([[0, -3305], [730, 1000]]))).toBeNull();
    expect(Math.abs(xirr([f("2020-01-01", -3305), f("2021-12-31", 1000)])! - (Math.sqrt(1000 / 3305) - 1))).toBeLessThan(1e-9);
    expect(bisection(terms([[0, -1], [8, 1e6]]))).toBeNull();
  });

  it.each([
    ["no flows", []],
    ["one flow", [f("2024-01-01", -1000)]],
    ["only investments", [f("2024-01-01", -1000), f("2025-01-01", -1000)]],
    ["only receipts", [f("2024-01-01", 1000), f("2025-01-01", 1000)]],
    ["zeros and receipts", [f("2024-01-01", 0), f("2025-01-01", 1000)]],
    ["6 days apart", [f("2025-01-01", -1000), f("2025-01-07", 1001)]],
    ["6 days apart, out of order", [f("2025-01-07", 1001), f("2025-01-01", -1000), f("2025-01-04", -1)]],
    ["a return beyond any rate (Newton and the grid both fail)", [f("2025-01-01", -1), f("2025-01-09", 1_000_000)]],
  ])("null for %s", (_name, flows) => {
    expect(xirr(flows)).toBeNull();
  });
});
