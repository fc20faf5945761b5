// Prisma's Decimal (decimal.js): the type the database's numeric columns come back as, so money is
// computed in it too, and never in floating point.
import { Decimal } from "@prisma/client/runtime/client";

export { Decimal };

/**
 * Allotment arithmetic, in exact decimals. Units are truncated to 3 decimals (never more units than
 * the money buys: 1000.00 at NAV 12.3456 is 81.000518... units, allotted 81.000); an amount from
 * units is rounded half-up to the paisa.
 */
export function unitsFor(amount: Decimal, nav: Decimal): Decimal {
  return amount.dividedBy(nav).toDecimalPlaces(3, Decimal.ROUND_DOWN);
}

export function amountFor(units: Decimal, nav: Decimal): Decimal {
  return units.times(nav).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
