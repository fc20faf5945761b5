import { Decimal } from "../../platform/lib/money.js";
import type { DbOrTx } from "../../platform/db/client.js";
import { notFound } from "../../platform/lib/errors.js";
import { maskPan } from "../../platform/lib/mask.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import type { PositionView, SummaryView } from "./holdings.schemas.js";
import { investorPanHash, positionsByPanHash, sumFolioUnits, type PositionRow } from "./holdings.repo.js";

/** POST /api/holdings/v1/lookup: the PAN's single-holder positions reported under the caller's ARN. */
export async function lookupHoldings(services: Services, caller: Caller, pan: string) {
  const rows = await positionsByPanHash(services.prisma, caller.distributorId, services.cipher.lookupHash(pan));
  return { pan: maskPan(pan), holdings: rows.map(toPosition), summary: summarise(rows) };
}

/** GET /api/investors/v1/{id}/holdings: the same, over the investor's primary PAN. */
export async function investorHoldings(services: Services, caller: Caller, investorId: string) {
  const panHash = await investorPanHash(services.prisma, caller.distributorId, investorId);
  if (panHash === null) throw notFound(`Investor ${investorId}`);
  const rows = await positionsByPanHash(services.prisma, caller.distributorId, panHash);
  return { investor_id: investorId, holdings: rows.map(toPosition), summary: summarise(rows) };
}

/**
 * For the orders' redemption check: the units of `folioNo` in `schemeCode` that the registrars report for the
 * distributor, summed across registrars; null when holdings know nothing of that folio and scheme. `schemeCode`
 * is our scheme master's code (positions map to it through their ISIN) or, for a position that maps to none,
 * the registrar's scheme code. All holding natures count (a joint folio's units are still its units).
 */
export async function folioUnits(db: DbOrTx, distributorId: string, folioNo: string, schemeCode: string): Promise<Decimal | null> {
  const units = await sumFolioUnits(db, distributorId, folioNo, schemeCode);
  return units === null ? null : new Decimal(units);
}

const num = (text: string | null) => (text === null ? null : Number(text));

function toPosition(row: PositionRow): PositionView {
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
  };
}

/**
 * Totals in exact decimals; JSON numbers only at the end. Market values (numeric(20, 2), read as text:
 * `1234.50`) are summed as whole paise in a bigint, several times cheaper than decimal.js and as exact;
 * a value of any other form is summed with Decimal (see paiseOf).
 */
export function summarise(rows: PositionRow[]): SummaryView {
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
    const negative = this.paise < 0n;
    const magnitude = negative ? -this.paise : this.paise;
    const text = `${negative ? "-" : ""}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, "0")}`;
    return this.decimal === undefined ? Number(text) : this.decimal.plus(text).toNumber();
  }
}
