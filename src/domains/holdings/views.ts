import { Decimal } from "../../platform/lib/money.js";
import { scaledText } from "../portfolio/exact.js";
import type { PositionRow } from "./holdings.repo.js";
import type { CostAndReturn } from "./cost-and-return.js";
import type { PortfolioTotals } from "./holdings-figures.js";
import type { PositionView, SummaryView } from "./holdings.schemas.js";

const num = (text: string | null) => (text === null ? null : Number(text));

/** A position as the lookups show it: decimals as JSON numbers (units 3 places, NAV 4, value 2). */
export function toPositionView(row: PositionRow, figures: CostAndReturn): PositionView {
  return {
    registrar: row.registrar,
    amc_code: row.amc_code,
    amc_name: row.amc_name,
    folio_no: row.folio_no,
    scheme_code: row.scheme_code,
    isin: row.isin,
    scheme_name: row.scheme_name,
    units: Number(row.units),
    nav: num(row.nav),
    nav_date: row.nav_date,
    market_value: num(row.market_value),
    balance_date: row.balance_date,
    ...figures,
  };
}

/**
 * Totals in exact decimals; JSON numbers only at the end. Market values (numeric(20, 2), read as text:
 * `1234.50`) are summed as whole paise in a bigint, several times cheaper than decimal.js and as exact;
 * a value of any other form is summed with Decimal (see paiseOf).
 */
export function summarise(rows: PositionRow[]): Omit<SummaryView, keyof PortfolioTotals> {
  const zero = () => ({ positions: 0, value: new ExactSum(), asOf: null as string | null });
  const by = { CAMS: zero(), KFINTECH: zero() };
  const total = new ExactSum();
  let asOf: string | null = null;
  const folios = new Set<string>();
  const schemes = new Set<string>();
  for (const row of rows) {
    const r = by[row.registrar];
    if (row.market_value !== null) {
      total.add(row.market_value);
      r.value.add(row.market_value);
    }
    r.positions++;
    r.asOf = later(r.asOf, row.balance_date);
    asOf = later(asOf, row.balance_date);
    folios.add(`${row.registrar}\u0000${row.amc_code}\u0000${row.folio_no}`);
    schemes.add(row.scheme_code);
  }
  const view = (r: ReturnType<typeof zero>) => ({ positions: r.positions, market_value: r.value.toNumber(), as_of: r.asOf });
  return {
    total_market_value: total.toNumber(),
    positions: rows.length,
    folios: folios.size,
    schemes: schemes.size,
    as_of: asOf,
    by_registrar: { CAMS: view(by.CAMS), KFINTECH: view(by.KFINTECH) },
  };
}

/** The later of two dates (ISO texts, so compared as texts); any date is later than none. */
function later(date: string | null, other: string): string {
  if (date === null) return other;
  // Stryker disable next-line EqualityOperator: of two equal dates either is the later
  return other > date ? other : date;
}

/** A decimal text with exactly two places (`1234.50`, `-0.05`) as whole paise; null for any other form. */
export function paiseOf(text: string): bigint | null {
  return /^-?\d+\.\d\d$/.test(text) ? BigInt(text.slice(0, -3) + text.slice(-2)) : null;
}

/** An exact sum of decimal texts: whole paise while every term has two places, else decimal.js. */
class ExactSum {
  private paise = 0n;
  private decimal: Decimal | undefined;

  add(text: string): void {
    const paise = this.decimal === undefined ? paiseOf(text) : null;
    if (paise !== null) this.paise += paise;
    else this.decimal = (this.decimal ?? new Decimal(0)).plus(text);
  }

  /** The nearest JSON number, as Decimal's toNumber gives it (Number of the exact decimal text). */
  toNumber(): number {
    const text = scaledText(this.paise, 2);
    return this.decimal === undefined ? Number(text) : this.decimal.plus(text).toNumber();
  }
}
