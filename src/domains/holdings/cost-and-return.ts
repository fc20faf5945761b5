import { lockIn, lockInPeriodOf } from "../portfolio/lock-in.js";
import { buildLots } from "../portfolio/lots.js";
import { scaledNumber, scaledText } from "../portfolio/exact.js";
import { cashFlows, positionFigures } from "../portfolio/position-figures.js";
import type { CashFlow } from "../portfolio/xirr.js";
import type { PositionTxn } from "../portfolio/transactions.js";
import type { PositionRow } from "./holdings.repo.js";
import type { PositionView } from "./holdings.schemas.js";

/**
 * A position's cost, return and locked units from its transactions (issue 27, point 4), by the portfolio
 * computations (src/domains/portfolio/). Cost, value, gain and XIRR cover the units the transactions explain;
 * units held before our history (the opening lot) are in none of them, and `lots_complete` says so.
 */

export interface SchemeFacts {
  isElss: boolean;
  lockIn: string | null;
}

/** The position's figures as the lookups show them (holdings.schemas.ts, Position). */
export type CostAndReturn = Pick<
  PositionView,
  "cost_value" | "average_nav" | "unrealised_gain" | "xirr" | "locked_units" | "free_units" | "undetermined_units" | "next_unlock_date" | "lots_complete" | "lots_note"
>;

/** Exact figures behind the view, for the summary's totals and portfolio XIRR. */
export interface ExactFigures {
  costPaise: bigint | null;
  valuePaise: bigint | null;
  /** The position's XIRR flows (empty when its value is unknown), for the portfolio XIRR. */
  flows: CashFlow[];
}

/** Paise as rupees, the JSON number nearest the exact 2-decimal text (as Number of decimal.js's toFixed(2) gives it, without its division). */
export const rupees = (paise: bigint) => scaledNumber(paise, 2);

/** XIRR as a JSON number, 6 decimals (a rate: 0.123456 is 12.3456% a year). */
export const rate6 = (rate: number | null) => (rate === null ? null : Number(rate.toFixed(6)));

export function costAndReturn(row: PositionRow, txns: readonly PositionTxn[], facts: SchemeFacts, today: string): { view: CostAndReturn; exact: ExactFigures } {
  const lots = buildLots(txns, row.units);
  const lock = lockIn(lots.openLots, lockInPeriodOf(facts.isElss, facts.lockIn), today);
  const valueDate = row.nav_date ?? row.balance_date;
  const known = lots.openLots.some((l) => l.source === "LOT");
  const figures = positionFigures(txns, lots, row.nav ?? "0", valueDate);
  const valueKnown = known && row.nav !== null;
  const view: CostAndReturn = {
    cost_value: known ? rupees(figures.costValuePaise) : null,
    average_nav: figures.averageNav === null ? null : figures.averageNav.toNumber(),
    unrealised_gain: valueKnown ? rupees(figures.unrealisedGainPaise) : null,
    xirr: valueKnown ? rate6(figures.xirr.rate) : null,
    locked_units: scaledNumber(lock.lockedMilli, 3),
    free_units: scaledNumber(lock.freeMilli, 3),
    undetermined_units: scaledNumber(lock.undeterminedMilli, 3),
    next_unlock_date: lock.nextUnlockOn,
    lots_complete: lots.lotsComplete,
    lots_note: lots.lotsComplete ? null : lotsNote(lots.unexplainedMilli, txns.length),
  };
  const flows = valueKnown ? cashFlows(txns, lots, valueDate, figures.currentValuePaise) : [];
  return { view, exact: { costPaise: known ? figures.costValuePaise : null, valuePaise: valueKnown ? figures.currentValuePaise : null, flows } };
}

/** `unexplained`: units as whole thousandths (LotsResult). */
function lotsNote(unexplained: bigint, txnCount: number): string {
  if (unexplained > 0n) {
    const held = `${scaledText(unexplained, 3)} units were held before the transactions we have`;
    return `${txnCount === 0 ? "No transactions of this position yet: " : ""}${held}; their date and cost are unknown, so cost, gain and XIRR leave them out`;
  }
  if (unexplained < 0n) return `The transactions add up to ${scaledText(-unexplained, 3)} units more than the registrar's balance; cost, gain and XIRR cover the lots they leave`;
  return "A sale took more units than the lots before it held; cost, gain and XIRR cover the lots left";
}
