import { Decimal } from "../../platform/lib/money.js";

/**
 * Units as whole thousandths (units have 3 decimals), so FIFO sums and splits are exact integers. Read off the
 * decimal's plain text (no exponent), as are the lookups' every lot and sale: decimal.js arithmetic
 * (abs, times 1000) cost several times more (docs/benchmarks.md, bench:holdings-figures).
 */
export function toMilli(units: Decimal): bigint {
  const text = units.toFixed();
  const point = text.indexOf(".");
  const fraction = point === -1 ? "" : text.slice(point + 1);
  if (fraction.length > 3) throw new RangeError(`units with more than 3 decimals: ${units.toString()}`);
  const whole = point === -1 ? text : text.slice(0, point);
  return BigInt((whole.startsWith("-") ? whole.slice(1) : whole) + fraction.padEnd(3, "0"));
}

const ZERO = new Decimal(0);

/** Whole thousandths as the exact decimal, made from its text (no division); zero, the common case, is one shared (immutable) decimal. */
export function fromMilli(milli: bigint): Decimal {
  // Stryker disable next-line ConditionalExpression: the shared zero only saves a parse; the text below makes the same zero
  if (milli === 0n) return ZERO;
  // Stryker disable next-line EqualityOperator: zero returned above
  const magnitude = milli < 0n ? -milli : milli;
  // Stryker disable next-line EqualityOperator: zero returned above
  return new Decimal(`${milli < 0n ? "-" : ""}${magnitude / 1000n}.${String(magnitude % 1000n).padStart(3, "0")}`);
}

/** A decimal's digits as an integer and its scale (12.3456 is 123456n and 4): exact, from its plain text. */
export function scaledOf(value: Decimal): { digits: bigint; scale: number } {
  const text = value.toFixed();
  const point = text.indexOf(".");
  return point === -1 ? { digits: BigInt(text), scale: 0 } : { digits: BigInt(text.slice(0, point) + text.slice(point + 1)), scale: text.length - point - 1 };
}

/**
 * `total * part / whole` rounded half-even to a whole paisa, in integers (never a float, never a rounded
 * intermediate). The caller keeps `total - share` with what remains, so the shares of a whole sum exactly.
 */
export function proRata(total: bigint, part: bigint, whole: bigint): bigint {
  const numerator = total * part;
  const quotient = numerator / whole;
  const twiceRemainder = (numerator % whole) * 2n;
  if (twiceRemainder > whole || (twiceRemainder === whole && quotient % 2n !== 0n)) return quotient + 1n;
  return quotient;
}
