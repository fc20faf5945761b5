import { describe, expect, it } from "vitest";
import { addDays, addMonths, addMonthsClamped, daysBetween } from "../../src/domains/portfolio/calendar.js";
import { ELSS_LOCK_IN, lockIn, lockInPeriodOf, parseLockInPeriod, unlockDate } from "../../src/domains/portfolio/lock-in.js";
import { scaledText, toMilli } from "../../src/domains/portfolio/exact.js";

/** Locked and free units (reports.md, Lock-in): redeemable on or after the anniversary. */

describe("calendar", () => {
  it.each([
    ["2024-01-31", 1, "2024-03-01", "2024-02-29"],
    ["2023-01-31", 1, "2023-03-01", "2023-02-28"],
    ["2020-02-29", 36, "2023-03-01", "2023-02-28"],
    ["2020-02-29", 48, "2024-02-29", "2024-02-29"],
    ["2024-02-29", 12, "2025-03-01", "2025-02-28"],
    ["2024-03-31", 1, "2024-05-01", "2024-04-30"],
    ["2024-12-31", 12, "2025-12-31", "2025-12-31"],
    ["2024-11-30", 3, "2025-03-01", "2025-02-28"],
    ["2024-05-15", 0, "2024-05-15", "2024-05-15"],
    ["2024-05-15", 1, "2024-06-15", "2024-06-15"],
  ])("%s + %s months: %s (rolled over), %s (clamped)", (date, months, rolled, clamped) => {
    expect(addMonths(date, months)).toBe(rolled);
    expect(addMonthsClamped(date, months)).toBe(clamped);
  });

  it.each([
    ["2024-01-01", "2024-01-01", 0],
    ["2024-01-01", "2025-01-01", 366],
    ["2025-01-01", "2026-01-01", 365],
    ["2024-03-10", "2024-03-11", 1],
    ["2024-03-11", "2024-03-10", -1],
  ])("days from %s to %s: %s", (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });

  it("adds days across a leap day", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-02-28", 1095)).toBe("2027-02-27");
  });
});

describe("lock-in periods", () => {
  it.each([
    ["3 Years", { count: 3, unit: "YEARS" }],
    ["3Y", { count: 3, unit: "YEARS" }],
    ["5 yrs", { count: 5, unit: "YEARS" }],
    ["5 yr", { count: 5, unit: "YEARS" }],
    ["1 year", { count: 1, unit: "YEARS" }],
    [" 60 Months ", { count: 60, unit: "MONTHS" }],
    ["1 month", { count: 1, unit: "MONTHS" }],
    ["6M", { count: 6, unit: "MONTHS" }],
    ["1095 Days", { count: 1095, unit: "DAYS" }],
    ["7 day", { count: 7, unit: "DAYS" }],
    ["30D", { count: 30, unit: "DAYS" }],
    ["0 Years", null],
    ["", null],
    ["N", null],
    ["3", null],
    ["three years", null],
    ["3 Years x", null],
    ["x 3 Years", null],
    ["12345 Days", null],
    [null, null],
  ])("%j -> %j", (text, period) => {
    expect(parseLockInPeriod(text)).toEqual(period);
  });

  it("ELSS is 3 years whatever the master says; other schemes the master's period", () => {
    expect(lockInPeriodOf(true, null)).toEqual({ count: 3, unit: "YEARS" });
    expect(lockInPeriodOf(true, "5 Years")).toBe(ELSS_LOCK_IN);
    expect(lockInPeriodOf(false, "5 Years")).toEqual({ count: 5, unit: "YEARS" });
    expect(lockInPeriodOf(false, null)).toBeNull();
  });

  it.each([
    ["2023-01-15", { count: 3, unit: "YEARS" }, "2026-01-15"],
    ["2020-02-29", { count: 3, unit: "YEARS" }, "2023-03-01"],
    ["2020-02-29", { count: 4, unit: "YEARS" }, "2024-02-29"],
    ["2023-01-31", { count: 1, unit: "MONTHS" }, "2023-03-01"],
    ["2023-01-15", { count: 1095, unit: "DAYS" }, "2026-01-14"],
  ] as const)("a lot of %s with %j unlocks on %s", (date, period, unlocks) => {
    expect(unlockDate(date, period)).toBe(unlocks);
  });
});

describe("lockIn", () => {
  const lot = (acquiredOn: string | null, units: string, acquiredOnOrBefore: string | null = acquiredOn) => ({ acquiredOn, acquiredOnOrBefore, milli: toMilli(units) });
  const shape = (r: ReturnType<typeof lockIn>) => [scaledText(r.lockedMilli, 3), scaledText(r.freeMilli, 3), scaledText(r.undeterminedMilli, 3), r.nextUnlockOn];

  it("ELSS: locked until the 3rd anniversary, free on it", () => {
    const lots = [lot("2023-01-15", "10.000"), lot("2023-01-16", "5.500"), lot("2023-03-01", "1.000"), lot("2023-02-01", "2.000")];
    expect(shape(lockIn(lots, ELSS_LOCK_IN, "2026-01-14"))).toEqual(["18.500", "0.000", "0.000", "2026-01-15"]);
    expect(shape(lockIn(lots, ELSS_LOCK_IN, "2026-01-15"))).toEqual(["8.500", "10.000", "0.000", "2026-01-16"]);
    expect(shape(lockIn(lots, ELSS_LOCK_IN, "2026-01-16"))).toEqual(["3.000", "15.500", "0.000", "2026-02-01"]);
    expect(shape(lockIn(lots, ELSS_LOCK_IN, "2026-03-01"))).toEqual(["0.000", "18.500", "0.000", null]);
  });

  it("a 29 February lot is locked on 28 February three years on and free on 1 March", () => {
    expect(shape(lockIn([lot("2020-02-29", "1.000")], ELSS_LOCK_IN, "2023-02-28"))).toEqual(["1.000", "0.000", "0.000", "2023-03-01"]);
    expect(shape(lockIn([lot("2020-02-29", "1.000")], ELSS_LOCK_IN, "2023-03-01"))).toEqual(["0.000", "1.000", "0.000", null]);
  });

  it("no lock-in: everything free, the opening lot included", () => {
    expect(shape(lockIn([lot(null, "3.000", null), lot("2026-01-01", "1.000")], null, "2026-01-02"))).toEqual(["0.000", "4.000", "0.000", null]);
  });

  it("the opening lot is free when free even if bought on the first transaction's date, else undetermined", () => {
    expect(shape(lockIn([lot(null, "3.000", "2023-01-15")], ELSS_LOCK_IN, "2026-01-15"))).toEqual(["0.000", "3.000", "0.000", null]);
    expect(shape(lockIn([lot(null, "3.000", "2023-01-15"), lot("2023-06-01", "1.000")], ELSS_LOCK_IN, "2026-01-14"))).toEqual(["1.000", "0.000", "3.000", "2026-06-01"]);
    expect(shape(lockIn([lot(null, "3.000", null)], ELSS_LOCK_IN, "2026-01-14"))).toEqual(["0.000", "0.000", "3.000", null]);
  });
});
