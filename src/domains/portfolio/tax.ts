import { Decimal } from "../../platform/lib/money.js";
import { addMonthsClamped, daysBetween } from "./calendar.js";

/**
 * Tax classification of a sale's lots (reports.md, Tax classification). We report gains by class and term; we
 * compute no tax.
 *
 * | class           | which units                                                        | long term when          |
 * | EQUITY_ORIENTED | equity schemes, arbitrage, equity savings, aggressive hybrid, BAF  | sold after 12 months     |
 * | SPECIFIED       | debt schemes' units acquired on or after 2023-04-01 (Section 50AA) | never                   |
 * | OTHER           | everything else, and debt units acquired before 2023-04-01         | after 24 months (sold on |
 * |                 |                                                                    | or after 2024-07-23),    |
 * |                 |                                                                    | else after 36 months     |
 *
 * "After N months": the sale date is after the acquisition date N months later (29 February's anniversary in a
 * common year is 28 February). Holding days run from the day after acquisition to the sale date, inclusive.
 */

export type SchemeTaxKind = "EQUITY" | "DEBT" | "OTHER";
export type TaxClass = "EQUITY_ORIENTED" | "SPECIFIED" | "OTHER";
export type Term = "SHORT" | "LONG";

export const SPECIFIED_FROM = "2023-04-01";
export const SHORTER_OTHER_TERM_FROM = "2024-07-23";
export const GRANDFATHERED_BEFORE = "2018-02-01";

/** AMFI hybrid categories taxed as equity (65%+ in domestic equity, as a first guess), lower case without spaces. */
const EQUITY_HYBRIDS = new Set([
  "hybridscheme-arbitragefund", "hybridscheme-equitysavings", "hybridscheme-aggressivehybridfund", "hybridscheme-dynamicassetallocationorbalancedadvantage",
]);

/**
 * The scheme's kind from its AMFI category ("Equity Scheme - Large Cap Fund"), unless the per-scheme override
 * table names it (index funds, FoFs, solution-oriented schemes: the category alone cannot tell).
 */
export function schemeTaxKind(schemeCode: string, amfiCategory: string, overrides: ReadonlyMap<string, SchemeTaxKind> = new Map()): SchemeTaxKind {
  const override = overrides.get(schemeCode);
  if (override) return override;
  const category = amfiCategory.toLowerCase().replace(/\s/g, "");
  if (category.startsWith("equityscheme")) return "EQUITY";
  if (category.startsWith("debtscheme")) return "DEBT";
  if (EQUITY_HYBRIDS.has(category)) return "EQUITY";
  return "OTHER";
}

export function taxClass(kind: SchemeTaxKind, acquiredOn: string): TaxClass {
  if (kind === "EQUITY") return "EQUITY_ORIENTED";
  return kind === "DEBT" && acquiredOn >= SPECIFIED_FROM ? "SPECIFIED" : "OTHER";
}

export function holdingDays(acquiredOn: string, soldOn: string): number {
  return daysBetween(acquiredOn, soldOn);
}

export function term(taxClass: TaxClass, acquiredOn: string, soldOn: string): Term {
  if (taxClass === "SPECIFIED") return "SHORT";
  const months = taxClass === "EQUITY_ORIENTED" ? 12 : soldOn >= SHORTER_OTHER_TERM_FROM ? 24 : 36;
  return soldOn > addMonthsClamped(acquiredOn, months) ? "LONG" : "SHORT";
}

export type Grandfathering = "NOT_APPLICABLE" | "APPLIED" | "NAV_UNKNOWN";

/**
 * Section 112A: equity-oriented units acquired before 2018-02-01 cost the higher of their actual cost and the
 * lower of (the 31 January 2018 NAV x units) and the sale value. NAV x units is rounded half-even to the paisa.
 * Without that NAV the cost stays the actual cost and the line says NAV_UNKNOWN.
 */
export function grandfatheredCost(
  lot: { taxClass: TaxClass; acquiredOn: string; units: Decimal; costPaise: bigint; saleValuePaise: bigint },
  navOn20180131: Decimal | null,
): { costPaise: bigint; grandfathering: Grandfathering } {
  if (lot.taxClass !== "EQUITY_ORIENTED" || lot.acquiredOn >= GRANDFATHERED_BEFORE) return { costPaise: lot.costPaise, grandfathering: "NOT_APPLICABLE" };
  if (navOn20180131 === null) return { costPaise: lot.costPaise, grandfathering: "NAV_UNKNOWN" };
  const fairValue = BigInt(navOn20180131.times(lot.units).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toFixed(0));
  // Stryker disable next-line EqualityOperator: when equal, either side is the same number
  const lower = fairValue < lot.saleValuePaise ? fairValue : lot.saleValuePaise;
  // Stryker disable next-line EqualityOperator: when equal, either side is the same number
  return { costPaise: lower > lot.costPaise ? lower : lot.costPaise, grandfathering: "APPLIED" };
}
