import { Decimal } from "../../platform/lib/money.js";

/** Units as whole thousandths (units have 3 decimals), so FIFO sums and splits are exact integers. */
export function toMilli(units: Decimal): bigint {
  const milli = units.abs().times(1000);
  if (!milli.isInteger()) throw new RangeError(`units with more than 3 decimals: ${units.toString()}`);
  return BigInt(milli.toFixed(0));
}

export function fromMilli(milli: bigint): Decimal {
  return new Decimal(milli.toString()).dividedBy(1000);
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
