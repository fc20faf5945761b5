import { afterEach, describe, expect, it, vi } from "vitest";
import { paiseOf, summarise } from "../../src/domains/holdings/views.js";
import { rupees } from "../../src/domains/holdings/cost-and-return.js";
import type { PositionRow } from "../../src/domains/holdings/holdings.repo.js";
import { Decimal } from "../../src/platform/lib/money.js";

const row = (registrar: "CAMS" | "KFINTECH", market_value: string | null, n: number): PositionRow => ({
  registrar, amc_code: "A", amc_name: null, folio_no: `F${n}`, scheme_code: `S${n}`, isin: null, scheme_name: "S",
  units: "1.000", nav: null, nav_date: null, market_value, balance_date: "2026-11-16",
});

/** The totals as decimal.js computes them: the exact sum, then its nearest number. */
const exactly = (values: (string | null)[]) => values.reduce((sum, v) => (v === null ? sum : sum.plus(v)), new Decimal(0)).toNumber();

describe("the summary's market values", () => {
  it("are the exact sums of the positions' values, as decimal.js gives them, for every form of numeric(20, 2)", () => {
    const cases: (string | null)[][] = [
      ["0.10", "0.20", "0.70"],
      ["999999999999999999.99", "999999999999999999.99", "0.01"],
      ["9007199254740993.01", "0.99"],
      ["-0.05", "0.00", null, "12.34"],
      ["1000000.37", "0.00"],
      ["1.5", "0.25", "3"],
      ["0.30", "1e3", "0.01"],
      [],
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 200; i++) {
      cases.push(Array.from({ length: 1 + (random() % 8) }, () => `${random() % 3 === 0 ? "-" : ""}${random() % 100000000}.${String(random() % 100).padStart(2, "0")}`));
    }
    for (const values of cases) {
      const rows = values.map((value, n) => row(n % 2 ? "KFINTECH" : "CAMS", value, n));
      const summary = summarise(rows);
      expect(summary.total_market_value).toBe(exactly(values));
      expect(summary.by_registrar.CAMS.market_value).toBe(exactly(values.filter((_, n) => n % 2 === 0)));
      expect(summary.by_registrar.KFINTECH.market_value).toBe(exactly(values.filter((_, n) => n % 2 === 1)));
    }
  });
});

describe("paiseOf", () => {
  it("is the whole paise of a decimal text with exactly two places", () => {
    expect(paiseOf("1234.50")).toBe(123450n);
    expect(paiseOf("0.00")).toBe(0n);
    expect(paiseOf("-0.05")).toBe(-5n);
    expect(paiseOf("-12.34")).toBe(-1234n);
    expect(paiseOf("99.09")).toBe(9909n);
    expect(paiseOf("999999999999999999.99")).toBe(99999999999999999999n);
  });

  it("is null for any other form (which the sum then adds with decimal.js)", () => {
    for (const text of ["1.234", "x1.23", "1.23x", "1.5", "1", "1.", ".50", "-.50", "1e3", "1.2a", "1.a2", "a.12", "-x.12", "+1.23", "--1.23", "1,234.50", " 1.23", "1.23 ", "1.23\n", ""]) {
      expect(paiseOf(text), text).toBeNull();
    }
  });
});

describe("the summary's sums", () => {
  afterEach(() => vi.restoreAllMocks());

  it("use no decimal.js while every value has two places", () => {
    const plus = vi.spyOn(Decimal.prototype, "plus");
    const summary = summarise([row("CAMS", "0.10", 0), row("KFINTECH", "-0.05", 1), row("CAMS", "1234.50", 2), row("KFINTECH", null, 3)]);
    expect(plus).not.toHaveBeenCalled();
    expect(summary.total_market_value).toBe(1234.55);
    expect(summary.by_registrar.CAMS.market_value).toBe(1234.6);
    expect(summary.by_registrar.KFINTECH.market_value).toBe(-0.05);
  });

  it("add every value from the first one of another form on with decimal.js", () => {
    const plus = vi.spyOn(Decimal.prototype, "plus");
    const summary = summarise([row("CAMS", "0.10", 0), row("CAMS", "1.5", 1), row("CAMS", "0.25", 2), row("CAMS", "0.20", 3)]);
    // The total's and CAMS's sums each: 1.5, 0.25 and 0.20 with decimal.js, then the paise so far (0.10).
    expect(plus.mock.calls.map(([term]) => String(term))).toEqual(["1.5", "1.5", "0.25", "0.25", "0.20", "0.20", "0.10", "0.10"]);
    expect(summary.total_market_value).toBe(2.05);
    expect(summary.by_registrar.CAMS.market_value).toBe(2.05);
    expect(summary.by_registrar.KFINTECH.market_value).toBe(0);
  });
});

describe("the summary", () => {
  const position = (registrar: "CAMS" | "KFINTECH", amc_code: string, folio_no: string, scheme_code: string, balance_date: string, market_value: string | null): PositionRow => ({
    ...row(registrar, market_value, 0), amc_code, folio_no, scheme_code, balance_date,
  });

  it("counts positions, folios (registrar, AMC and folio number) and schemes, and gives each registrar's and the latest balance date", () => {
    const summary = summarise([
      position("CAMS", "A", "F1", "S1", "2026-11-14", "10.00"),
      position("CAMS", "A", "F1", "S2", "2026-11-16", null),
      position("CAMS", "B", "F1", "S1", "2026-11-15", "2.50"),
      position("KFINTECH", "A", "F1", "S3", "2026-11-10", "1.25"),
      position("KFINTECH", "A", "F2", "S3", "2026-11-12", "0.75"),
      position("KFINTECH", "A", "F2", "S4", "2026-11-11", null),
    ]);
    expect(summary).toEqual({
      total_market_value: 14.5,
      positions: 6,
      folios: 4,
      schemes: 4,
      as_of: "2026-11-16",
      by_registrar: {
        CAMS: { positions: 3, market_value: 12.5, as_of: "2026-11-16" },
        KFINTECH: { positions: 3, market_value: 2, as_of: "2026-11-12" },
      },
    });
  });

  it("gives a registrar with no positions (and an empty lookup) zero and no date", () => {
    expect(summarise([position("KFINTECH", "A", "F1", "S1", "2026-11-12", "1.00"), position("KFINTECH", "A", "F1", "S2", "2026-11-09", "2.00")])).toEqual({
      total_market_value: 3,
      positions: 2,
      folios: 1,
      schemes: 2,
      as_of: "2026-11-12",
      by_registrar: {
        CAMS: { positions: 0, market_value: 0, as_of: null },
        KFINTECH: { positions: 2, market_value: 3, as_of: "2026-11-12" },
      },
    });
    expect(summarise([])).toEqual({
      total_market_value: 0, positions: 0, folios: 0, schemes: 0, as_of: null,
      by_registrar: { CAMS: { positions: 0, market_value: 0, as_of: null }, KFINTECH: { positions: 0, market_value: 0, as_of: null } },
    });
  });
});

describe("rupees of paise (the figures' money as JSON numbers)", () => {
  it("is the number of decimal.js's exact quotient to 2 places, over 5,000 values of either sign and both ends of the range", () => {
    const exact = (paise: bigint) => Number(new Decimal(paise.toString()).dividedBy(100).toFixed(2));
    const values: bigint[] = [0n, 1n, -1n, 5n, -5n, 50n, -50n, 99n, 100n, -100n, 12_345n, -12_345n, 900_719_925_474_099_301n, -(10n ** 20n) - 7n];
    let seed = 11n;
    for (let i = 0; i < 5_000; i++) {
      seed = (seed * 48_271n) % 2_147_483_647n;
      values.push((seed * seed * (i % 5 === 0 ? 1_000_003n : 1n)) * (i % 2 === 0 ? -1n : 1n));
    }
    for (const paise of values) expect(rupees(paise), String(paise)).toBe(exact(paise));
  });
});
