import { describe, expect, it } from "vitest";
import { grandfatheredCost, holdingDays, schemeTaxKind, taxClass, term } from "../../src/domains/portfolio/tax.js";
import { dec } from "./txns.js";

/** The tax-classification table of reports.md at every boundary the issue names. */

describe("schemeTaxKind: the AMFI category, unless the scheme's override says otherwise", () => {
  it.each([
    ["Equity Scheme - Large Cap Fund", "EQUITY"],
    ["Equity Scheme - ELSS", "EQUITY"],
    ["equity scheme-sectoral/ thematic", "EQUITY"],
    ["Hybrid Scheme - Arbitrage Fund", "EQUITY"],
    ["Hybrid Scheme - Equity Savings", "EQUITY"],
    ["Hybrid Scheme - Aggressive Hybrid Fund", "EQUITY"],
    ["Hybrid Scheme  -  Dynamic Asset Allocation or Balanced Advantage", "EQUITY"],
    ["Hybrid Scheme - Conservative Hybrid Fund", "OTHER"],
    ["Hybrid Scheme - Multi Asset Allocation", "OTHER"],
    ["Hybrid Scheme", "OTHER"],
    ["Debt Scheme - Liquid Fund", "DEBT"],
    ["Debt Scheme - Money Market Fund", "DEBT"],
    ["Other Scheme - Gold ETF", "OTHER"],
    ["Other Scheme - FoF Overseas", "OTHER"],
    ["Other Scheme - Index Funds", "OTHER"],
    ["Solution Oriented Scheme - Retirement Fund", "OTHER"],
    ["Arbitrage Fund", "OTHER"],
    ["", "OTHER"],
  ])("%j -> %s", (category, kind) => {
    expect(schemeTaxKind("100", category)).toBe(kind);
  });

  it("the override wins", () => {
    const overrides = new Map([["120716", "EQUITY" as const], ["120717", "DEBT" as const]]);
    expect(schemeTaxKind("120716", "Other Scheme - Index Funds", overrides)).toBe("EQUITY");
    expect(schemeTaxKind("120717", "Equity Scheme - Large Cap Fund", overrides)).toBe("DEBT");
    expect(schemeTaxKind("120718", "Equity Scheme - Large Cap Fund", overrides)).toBe("EQUITY");
  });
});

describe("taxClass: debt units are SPECIFIED from 1 April 2023", () => {
  it.each([
    ["EQUITY", "2023-04-01", "EQUITY_ORIENTED"],
    ["EQUITY", "2010-01-01", "EQUITY_ORIENTED"],
    ["DEBT", "2023-03-31", "OTHER"],
    ["DEBT", "2023-04-01", "SPECIFIED"],
    ["DEBT", "2025-01-01", "SPECIFIED"],
    ["OTHER", "2023-04-01", "OTHER"],
  ] as const)("%s acquired %s -> %s", (kind, acquiredOn, cls) => {
    expect(taxClass(kind, acquiredOn)).toBe(cls);
  });
});

describe("holding days and term", () => {
  it.each([
    // equity: long when sold after the same date a year later (more than 12 months)
    ["EQUITY_ORIENTED", "2025-01-10", "2026-01-10", 365, "SHORT"],
    ["EQUITY_ORIENTED", "2025-01-10", "2026-01-11", 366, "LONG"],
    ["EQUITY_ORIENTED", "2023-03-01", "2024-03-01", 366, "SHORT"], // 366 days across 29 Feb 2024, still 12 months
    ["EQUITY_ORIENTED", "2023-03-01", "2024-03-02", 367, "LONG"],
    ["EQUITY_ORIENTED", "2024-02-28", "2025-02-28", 366, "SHORT"],
    ["EQUITY_ORIENTED", "2024-02-28", "2025-03-01", 367, "LONG"],
    ["EQUITY_ORIENTED", "2024-02-29", "2025-02-28", 365, "SHORT"], // 29 Feb's anniversary is 28 Feb
    ["EQUITY_ORIENTED", "2024-02-29", "2025-03-01", 366, "LONG"],
    ["EQUITY_ORIENTED", "2024-05-01", "2024-05-01", 0, "SHORT"],
    // other: more than 24 months for sales on or after 23 July 2024, more than 36 before
    ["OTHER", "2022-07-23", "2024-07-23", 731, "SHORT"],
    ["OTHER", "2022-07-22", "2024-07-23", 732, "LONG"],
    ["OTHER", "2021-07-22", "2024-07-22", 1096, "SHORT"], // before 23 July 2024: 36 months
    ["OTHER", "2021-07-21", "2024-07-22", 1097, "LONG"],
    ["OTHER", "2022-07-20", "2024-07-22", 733, "SHORT"],
    ["OTHER", "2022-01-01", "2024-07-23", 934, "LONG"],
    // specified: always short
    ["SPECIFIED", "2023-04-01", "2030-04-01", 2557, "SHORT"],
  ] as const)("%s bought %s sold %s: %s days, %s", (cls, acquiredOn, soldOn, days, expected) => {
    expect(holdingDays(acquiredOn, soldOn)).toBe(days);
    expect(term(cls, acquiredOn, soldOn)).toBe(expected);
  });
});

describe("grandfathering (Section 112A): max(cost, min(NAV 2018-01-31 x units, sale value))", () => {
  const lot = (acquiredOn: string, costPaise: bigint, saleValuePaise: bigint, cls: "EQUITY_ORIENTED" | "OTHER" = "EQUITY_ORIENTED") => ({ taxClass: cls, acquiredOn, units: dec("100.000"), costPaise, saleValuePaise });
  it.each([
    // NAV 50 x 100 units = 5,000.00 (500,000 paise)
    ["fair value between cost and sale: fair value", lot("2017-06-01", 300_000n, 800_000n), "50", 500_000n, "APPLIED"],
    ["sale below fair value: the sale value", lot("2017-06-01", 300_000n, 400_000n), "50", 400_000n, "APPLIED"],
    ["cost above fair value: the cost", lot("2017-06-01", 600_000n, 800_000n), "50", 600_000n, "APPLIED"],
    ["cost above both: the cost", lot("2017-06-01", 600_000n, 400_000n), "50", 600_000n, "APPLIED"],
    ["fair value equal to cost", lot("2017-06-01", 500_000n, 800_000n), "50", 500_000n, "APPLIED"],
    ["bought 2018-01-31: still grandfathered", lot("2018-01-31", 300_000n, 800_000n), "50", 500_000n, "APPLIED"],
    ["bought 2018-02-01: not", lot("2018-02-01", 300_000n, 800_000n), "50", 300_000n, "NOT_APPLICABLE"],
    ["not equity-oriented: not", lot("2017-06-01", 300_000n, 800_000n, "OTHER"), "50", 300_000n, "NOT_APPLICABLE"],
    ["NAV x units rounded half-even: 33.33335 x 100 = 3,333.335 -> 333,334 paise", lot("2017-06-01", 0n, 900_000n), "33.33335", 333_334n, "APPLIED"],
    ["and 33.33325 x 100 = 3,333.325 -> 333,332 paise", lot("2017-06-01", 0n, 900_000n), "33.33325", 333_332n, "APPLIED"],
  ])("%s", (_name, input, nav, costPaise, grandfathering) => {
    expect(grandfatheredCost(input, dec(nav))).toEqual({ costPaise, grandfathering });
  });

  it("without the 2018 NAV the cost stays the actual cost, flagged", () => {
    expect(grandfatheredCost(lot("2017-06-01", 300_000n, 800_000n), null)).toEqual({ costPaise: 300_000n, grandfathering: "NAV_UNKNOWN" });
    expect(grandfatheredCost(lot("2019-06-01", 300_000n, 800_000n), null)).toEqual({ costPaise: 300_000n, grandfathering: "NOT_APPLICABLE" });
  });
});
