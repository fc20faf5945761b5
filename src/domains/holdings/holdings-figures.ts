import type { DbOrTx } from "../../platform/db/client.js";
import { xirrOutcome, type CashFlow } from "../portfolio/xirr.js";
import { costAndReturn, rate6, rupees, type CostAndReturn, type SchemeFacts } from "./cost-and-return.js";
import type { PositionRow } from "./holdings.repo.js";
import { schemeFacts, transactionsOfPositions } from "./position-txns.repo.js";
import { groupByPosition, isElssCategory, positionKeyText } from "./position-txns.js";

export interface PortfolioTotals {
  cost_value: number;
  current_value: number;
  unrealised_gain: number;
  xirr: number | null;
  lots_complete: boolean;
}

/**
 * Cost, return and locked units for the positions shown, with the summary's totals: two queries whatever the
 * number of positions (their transactions, their schemes' facts). Totals cover the positions whose cost and
 * value are both known; the portfolio XIRR runs over all their flows together.
 */
export async function figuresOfPositions(db: DbOrTx, distributorId: string, rows: readonly PositionRow[], today: string): Promise<{ figures: CostAndReturn[]; totals: PortfolioTotals }> {
  const [txnRows, facts] = await Promise.all([transactionsOfPositions(db, distributorId, rows), schemeFacts(db, rows.map((r) => r.scheme_code))]);
  const byPosition = groupByPosition(txnRows);
  const factsOf = new Map<string, SchemeFacts>(facts.map((f) => [f.scheme_code, { isElss: isElssCategory(f.category), lockIn: f.lock_in }]));
  let cost = 0n;
  let value = 0n;
  const flows: CashFlow[] = [];
  const figures = rows.map((row) => {
    const { view, exact } = costAndReturn(row, byPosition.get(positionKeyText(row)) ?? [], factsOf.get(row.scheme_code) ?? { isElss: false, lockIn: null }, today);
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
