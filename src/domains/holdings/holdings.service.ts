import { Decimal } from "../../platform/lib/money.js";
import type { DbOrTx } from "../../platform/db/client.js";
import { notFound } from "../../platform/lib/errors.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import { maskPan } from "../../platform/lib/mask.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { figuresOfHistory } from "./holdings-figures.js";
import { positionsWithHistory, type PositionWithHistory } from "./pan-positions.repo.js";
import { investorPanHash, sumFolioUnits } from "./holdings.repo.js";
import { summarise, toPositionView } from "./views.js";

/** POST /api/holdings/v1/lookup: the PAN's single-holder positions reported under the caller's ARN. */
export async function lookupHoldings(services: Services, caller: Caller, pan: string) {
  const rows = await positionsWithHistory(services.prisma, caller.distributorId, services.cipher.lookupHash(pan));
  return { pan: maskPan(pan), ...positionsAndSummary(rows) };
}

/** GET /api/investors/v1/{id}/holdings: the same, over the investor's primary PAN. */
export async function investorHoldings(services: Services, caller: Caller, investorId: string) {
  const panHash = await investorPanHash(services.prisma, caller.distributorId, investorId);
  if (panHash === null) throw notFound("Investor");
  const rows = await positionsWithHistory(services.prisma, caller.distributorId, panHash);
  return { investor_id: investorId, ...positionsAndSummary(rows) };
}

function positionsAndSummary(rows: PositionWithHistory[]) {
  const { figures, totals } = figuresOfHistory(rows, todayInIndia());
  return { holdings: rows.map((row, i) => toPositionView(row, figures[i]!)), summary: { ...summarise(rows), ...totals } };
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
