import { describe, expect, it } from "vitest";
import { summarise } from "../../src/holdings/holdings.service.js";
import type { PositionRow } from "../../src/holdings/holdings.repo.js";
import { Decimal } from "../../src/lib/money.js";

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
