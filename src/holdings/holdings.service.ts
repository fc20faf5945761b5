import { Decimal } from "../lib/money.js";
import type { DbOrTx } from "../db/client.js";
import { notFound } from "../lib/errors.js";
import { maskPan } from "../lib/mask.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
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

/** Totals in exact decimals; JSON numbers only at the end. */
export function summarise(rows: PositionRow[]): SummaryView {
  const zero = () => ({ positions: 0, value: new Decimal(0), asOf: null as string | null });
  const by = { CAMS: zero(), KFINTECH: zero() };
  let total = new Decimal(0);
  let asOf: string | null = null;
  const folios = new Set<string>();
  const schemes = new Set<string>();
  for (const row of rows) {
    const value = row.market_value === null ? new Decimal(0) : new Decimal(row.market_value);
    total = total.plus(value);
    const r = by[row.registrar];
    r.positions++;
    r.value = r.value.plus(value);
    if (r.asOf === null || row.balance_date > r.asOf) r.asOf = row.balance_date;
    if (asOf === null || row.balance_date > asOf) asOf = row.balance_date;
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
