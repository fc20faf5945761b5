import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/platform/lib/money.js";
import { fromMilli, scaledNumber, scaledOf, scaledText, toMilli } from "../../src/domains/portfolio/exact.js";
import { buildLots } from "../../src/domains/portfolio/lots.js";
import { positionFigures } from "../../src/domains/portfolio/position-figures.js";

/**
 * The lookups read units and NAVs through their plain text and integers (docs/benchmarks.md, the figures'
 * cost); these hold them equal to the decimal.js arithmetic they replaced, over many values.
 */

/** A deterministic stream of values (no Math.random: a failure must reproduce). */
function* values(count: number): Generator<number> {
  let state = 12_345;
  for (let i = 0; i < count; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield state;
  }
}

const oldToMilli = (units: Decimal) => BigInt(units.abs().times(1000).toFixed(0));
const oldFromMilli = (milli: bigint) => new Decimal(milli.toString()).dividedBy(1000);
const oldValuePaise = (units: Decimal, nav: Decimal) => BigInt(units.times(nav).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toFixed(0));

describe("units as thousandths, from and to their text", () => {
  it.each([
    ["12.345", 12_345n],
    ["-1.5", 1_500n],
    ["5.0000", 5_000n],
    ["0", 0n],
    ["-0", 0n],
    ["0.001", 1n],
    ["1e-3", 1n],
    ["123456789012345.678", 123_456_789_012_345_678n],
    ["1e21", 10n ** 24n],
  ])("toMilli(%s) = %s", (text, milli) => {
    expect(toMilli(new Decimal(text))).toBe(milli);
  });

  it.each(["1.0005", "0.0001", "-2.1234", "1e-4"])("refuses %s (more than 3 decimals)", (text) => {
    expect(() => toMilli(new Decimal(text))).toThrow(`units with more than 3 decimals: ${new Decimal(text).toString()}`);
  });

  it.each([
    [0n, "0"],
    [1n, "0.001"],
    [-1n, "-0.001"],
    [1_000n, "1"],
    [-12_345n, "-12.345"],
    [10_050n, "10.05"],
    [123_456_789_012_345_678n, "123456789012345.678"],
  ])("fromMilli(%s) = %s", (milli, text) => {
    expect(fromMilli(milli).toFixed()).toBe(text);
    expect(fromMilli(milli).equals(oldFromMilli(milli))).toBe(true);
  });

  it("round-trips and equals the decimal arithmetic over 5,000 values", () => {
    for (const n of values(5_000)) {
      const milli = BigInt(n) * (n % 3 === 0 ? 1_000_003n : 1n) * (n % 2 === 0 ? -1n : 1n);
      const units = fromMilli(milli);
      expect(units.equals(oldFromMilli(milli))).toBe(true);
      expect(toMilli(units)).toBe(oldToMilli(units));
    }
  });
});

describe("an integer of implied decimals as its text", () => {
  it.each([
    [0n, 2, "0.00"],
    [5n, 2, "0.05"],
    [-5n, 2, "-0.05"],
    [12_345n, 2, "123.45"],
    [-12_345n, 3, "-12.345"],
    [1_000n, 3, "1.000"],
    [10n ** 20n + 7n, 2, "1000000000000000000.07"],
  ])("%s at %s places is %s", (value, places, text) => {
    expect(scaledText(value, places)).toBe(text);
  });

  it("equals decimal.js's toFixed of the value over 5,000 integers, at 1 to 4 places, of either sign and any size", () => {
    for (const n of values(5_000)) {
      const value = BigInt(n) * (n % 3 === 0 ? 10n ** BigInt(n % 25) : 1n) * (n % 2 === 0 ? -1n : 1n);
      const places = 1 + (n % 4);
      expect(scaledText(value, places)).toBe(new Decimal(value.toString()).dividedBy(10 ** places).toFixed(places));
    }
  });
});

describe("a decimal's digits and scale", () => {
  it.each([
    ["12.3456", 123_456n, 4],
    ["21", 21n, 0],
    ["-0.5", -5n, 1],
    ["0.0001", 1n, 4],
    ["100.10", 1_001n, 1],
  ])("%s is %s at scale %s", (text, digits, scale) => {
    expect(scaledOf(new Decimal(text))).toEqual({ digits, scale });
    expect(scaledOf(text)).toEqual({ digits, scale });
  });

  it.each([
    ["5.000", 5n, 0],
    ["-0.000", 0n, 0],
    ["007.2500", 725n, 2],
    ["-12.3450", -12_345n, 3],
    ["100", 100n, 0],
  ])("reads the text %s (a numeric as PostgreSQL writes it) as %s at scale %s", (text, digits, scale) => {
    expect(scaledOf(text)).toEqual({ digits, scale });
  });

  it.each(["1e-3", "+2.5", ".5", "5.", "12.5x", "", "-", "1 000", "\u0661"])("refuses the text %j: not a plain decimal", (text) => {
    expect(() => scaledOf(text)).toThrow(new RangeError(`not a plain decimal text: ${JSON.stringify(text)}`));
  });

  it("reads a decimal's text as it reads the decimal, over 5,000 texts with leading and trailing zeros", () => {
    const stream = values(10_000);
    for (let i = 0; i < 5_000; i++) {
      const n = stream.next().value!;
      const places = n % 7;
      const body = String(stream.next().value! % 10 ** (places + 4)).padStart(places + 1, "0");
      const text = `${n % 5 === 0 ? "-" : ""}${n % 3 === 0 ? "00" : ""}${places === 0 ? body : `${body.slice(0, -places)}.${body.slice(-places)}`}${n % 4 === 0 ? "000" : ""}`;
      const fromDecimal = scaledOf(new Decimal(text));
      expect(scaledOf(text), text).toEqual(fromDecimal);
      if (fromDecimal.scale <= 3) expect(toMilli(text), text).toBe(toMilli(new Decimal(text)));
      else expect(() => toMilli(text), text).toThrow(`units with more than 3 decimals: ${text}`);
    }
  });
});

describe("thousandths as a JSON number", () => {
  it("equals decimal.js's toNumber of the same units over 5,000 values", () => {
    for (const n of values(5_000)) {
      const milli = BigInt(n) * (n % 3 === 0 ? 1_000_003n : 1n) * (n % 2 === 0 ? -1n : 1n);
      expect(scaledNumber(milli, 3)).toBe(fromMilli(milli).toNumber());
    }
    expect(scaledNumber(0n, 3)).toBe(0);
    expect(scaledNumber(-1n, 3)).toBe(-0.001);
  });
});

describe("today's value: units x NAV in paise, half-even, in integers", () => {
  it("equals decimal.js's product rounded half-even over 5,000 units and NAVs, negative NAVs included", () => {
    const stream = values(10_000);
    for (let i = 0; i < 5_000; i++) {
      const units = fromMilli(BigInt(stream.next().value!));
      const navN = stream.next().value!;
      const nav = new Decimal(navN).dividedBy(10 ** (navN % 6)).times(i % 7 === 0 ? -1 : 1);
      const r = positionFigures([], buildLots([], units), nav, "2025-11-28");
      expect(r.currentValuePaise).toBe(0n);
      const known = positionFigures(
        [{ txnNo: "1", type: "PURCHASE", tradeDate: "2024-11-28", units, amountPaise: 100n, stampDutyPaise: 0n, reversesTxnNo: null }],
        buildLots([{ txnNo: "1", type: "PURCHASE", tradeDate: "2024-11-28", units, amountPaise: 100n, stampDutyPaise: 0n, reversesTxnNo: null }], units),
        nav,
        "2025-11-28",
      );
      expect(known.currentValuePaise).toBe(oldValuePaise(units, nav));
    }
  });

  it("rounds a half paisa to even, on either side of zero", () => {
    const purchase = (units: string) => [{ txnNo: "1", type: "PURCHASE" as const, tradeDate: "2024-11-28", units: new Decimal(units), amountPaise: 100n, stampDutyPaise: 0n, reversesTxnNo: null }];
    const value = (units: string, nav: string) => positionFigures(purchase(units), buildLots(purchase(units), new Decimal(units)), new Decimal(nav), "2025-11-28").currentValuePaise;
    expect(value("1.000", "0.125")).toBe(12n); // 12.5 -> 12
    expect(value("1.000", "0.135")).toBe(14n); // 13.5 -> 14
    expect(value("1.000", "-0.125")).toBe(-12n);
    expect(value("1.000", "-0.135")).toBe(-14n);
    expect(value("0.001", "0.0001")).toBe(0n);
  });
});
