import { Decimal } from "../../platform/lib/money.js";

/**
 * Units as whole thousandths (units have 3 decimals), so FIFO sums and splits are exact integers. Read off the
 * decimal's plain text (scaledOf), as are the lookups' every lot and sale: decimal.js arithmetic (abs, times 1000)
 * cost several times more (docs/benchmarks.md, bench:holdings-figures).
 */
export function toMilli(units: Decimal | string): bigint {
  const { digits, scale } = scaledOf(units);
  if (scale > 3) throw new RangeError(`units with more than 3 decimals: ${units.toString()}`);
  // Stryker disable next-line EqualityOperator: -0n is 0n
  return (digits < 0n ? -digits : digits) * 10n ** BigInt(3 - scale);
}

const ZERO = new Decimal(0);

/** Whole thousandths as the exact decimal, made from its text (no division); zero, the common case, is one shared (immutable) decimal. */
export function fromMilli(milli: bigint): Decimal {
  // Stryker disable next-line ConditionalExpression: the shared zero only saves a parse; the text below makes the same zero
  if (milli === 0n) return ZERO;
  return new Decimal(scaledText(milli, 3));
}

/**
 * An integer of `places` (1 or more) implied decimals as its exact decimal text: (-12345n, 2) is "-123.45", (5n, 3)
 * "0.005". The point goes into the integer's digits (no bigint division: the lookups write some twenty of these).
 */
export function scaledText(value: bigint, places: number): string {
  const negative = value < 0n;
  const digits = String(negative ? -value : value).padStart(places + 1, "0");
  const point = digits.length - places;
  return `${negative ? "-" : ""}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * An integer of `places` implied decimals as the JSON number nearest its exact value (as decimal.js's toNumber of
 * the same decimal gives it): units from thousandths (3), rupees from paise (2).
 */
export const scaledNumber = (value: bigint, places: number) => Number(scaledText(value, places));

/** A plain decimal text, as PostgreSQL writes a numeric (`-12.3450`): sign, digits, a fraction's digits. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A decimal's digits as an integer and its scale (12.3456 is 123456n and 4): exact, from its plain text, with no
 * trailing zero in the fraction (12.3400 is 1234n and 2). A text (a numeric read as text, as the lookups read
 * units and NAVs) must be a plain decimal: anything else is a RangeError.
 */
export function scaledOf(value: Decimal | string): { digits: bigint; scale: number } {
  const text = typeof value === "string" ? plain(value) : value.toFixed();
  const point = text.indexOf(".");
  if (point === -1) return { digits: BigInt(text), scale: 0 };
  let end = text.length;
  while (text.charCodeAt(end - 1) === ZERO_CHAR) end--;
  return { digits: BigInt(text.slice(0, point) + text.slice(point + 1, end)), scale: end - point - 1 };
}

const ZERO_CHAR = 48;

function plain(text: string): string {
  if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`not a plain decimal text: ${JSON.stringify(text)}`);
  return text;
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
