import { xirrOutcome, type CashFlow } from "../portfolio/xirr.js";
import { costAndReturn, rate6, rupees, type CostAndReturn, type SchemeFacts } from "./cost-and-return.js";
import { isElssCategory, toPositionTxn } from "./position-txns.js";
import type { PositionWithHistory } from "./pan-positions.repo.js";
import type { SummaryView } from "./holdings.schemas.js";

/** The summary's totals (holdings.schemas.ts, Summary). */
export type PortfolioTotals = Pick<SummaryView, "cost_value" | "current_value" | "unrealised_gain" | "xirr" | "lots_complete">;

/**
 * Cost, return and locked units for the positions shown (read with their facts and transactions by
 * pan-positions.repo.ts), with the summary's totals. Totals cover the positions whose cost and value are both
 * known; the portfolio XIRR runs over all their flows together.
 */
export function figuresOfHistory(rows: readonly PositionWithHistory[], today: string): { figures: CostAndReturn[]; totals: PortfolioTotals } {
  let cost = 0n;
  let value = 0n;
  const flows: CashFlow[] = [];
  const figures = rows.map((row) => {
    const facts = row.category === null ? NO_FACTS : { isElss: isElssCategory(row.category), lockIn: row.lock_in };
    const { view, exact } = costAndReturn(row, row.txns.map(toPositionTxn), facts, today);
    if (exact.costPaise !== null && exact.valuePaise !== null) {
      cost += exact.costPaise;
      value += exact.valuePaise;
      flows.push(...exact.flows);
    }
    return view;
  });
  return {
    figures,
    totals: {
      cost_value: rupees(cost),
      current_value: rupees(value),
      unrealised_gain: rupees(value - cost),
      xirr: rate6(xirrOutcome(flows).rate),
      lots_complete: figures.every((f) => f.lots_complete),
    },
  };
}

/** A scheme our master lacks: not ELSS, no lock-in. */
const NO_FACTS: SchemeFacts = { isElss: false, lockIn: null };
