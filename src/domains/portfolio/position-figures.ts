import { Decimal } from "../../platform/lib/money.js";
import { fromMilli, proRata, scaledOf } from "./exact.js";
import { applyReversals, type LotsResult } from "./lots.js";
import type { PositionTxn, TxnType } from "./transactions.js";
import { xirrOutcome, type CashFlow, type XirrOutcome } from "./xirr.js";

/**
 * A position's cost and return from its lots (issue 27, point 4), over the lots of known date and cost only:
 * the opening lot (units before our history) counts in neither cost nor value nor XIRR, and `lotsComplete` says
 * so. Today's value is the known units x NAV, rounded half-even to the paisa; the average NAV is cost / units,
 * half-even to 4 decimals.
 *
 * XIRR's flows: purchases, SIPs, switch-ins, STP-ins and transfers-in invested (their cost, negative); the sale
 * value of what sales and transfers-out took from known lots, and dividend payouts, received; today's value
 * last. A dividend reinvestment and a bonus move no money. A payout is counted whole (it cannot be split
 * between known and opening units).
 */

const INVESTED: ReadonlySet<TxnType> = new Set(["PURCHASE", "SIP", "SWITCH_IN", "STP_IN", "TRANSFER_IN"]);

export interface PositionFigures {
  knownUnits: Decimal;
  costValuePaise: bigint;
  averageNav: Decimal | null;
  currentValuePaise: bigint;
  unrealisedGainPaise: bigint;
  xirr: XirrOutcome;
}

export function cashFlows(txns: readonly PositionTxn[], lots: LotsResult, valueDate: string, currentValuePaise: bigint): CashFlow[] {
  const flows: CashFlow[] = [];
  for (const t of applyReversals(txns).effective) {
    if (INVESTED.has(t.type)) flows.push({ date: t.tradeDate, amountPaise: -(t.amountPaise + t.stampDutyPaise) });
    if (t.type === "DIVIDEND_PAYOUT") flows.push({ date: t.tradeDate, amountPaise: t.amountPaise });
  }
  for (const disposal of [...lots.sales, ...lots.transfersOut]) {
    const known = disposal.consumed.filter((c) => c.source === "LOT").reduce((sum, c) => sum + c.saleValuePaise, 0n);
    flows.push({ date: disposal.soldOn, amountPaise: known });
  }
  flows.push({ date: valueDate, amountPaise: currentValuePaise });
  return flows;
}

/** `nav` as a decimal or its text (a numeric read as text, as the lookups read it). */
export function positionFigures(txns: readonly PositionTxn[], lots: LotsResult, nav: Decimal | string, valueDate: string): PositionFigures {
  const known = lots.openLots.filter((l) => l.source === "LOT");
  const knownMilli = known.reduce((sum, l) => sum + l.milli, 0n);
  const costValuePaise = known.reduce((sum, l) => sum + l.costPaise!, 0n);
  const knownUnits = fromMilli(knownMilli);
  // units (thousandths) x NAV (its digits at its scale) in paise, half-even (symmetric about zero): integers only.
  const { digits, scale } = scaledOf(nav);
  // Stryker disable next-line EqualityOperator: -0n is 0n
  const magnitude = proRata(knownMilli * (digits < 0n ? -digits : digits), 100n, 1000n * 10n ** BigInt(scale));
  // Stryker disable next-line EqualityOperator: -0n is 0n
  const currentValuePaise = digits < 0n ? -magnitude : magnitude;
  return {
    knownUnits,
    costValuePaise,
    averageNav: knownMilli === 0n ? null : new Decimal(costValuePaise.toString()).dividedBy(100).dividedBy(knownUnits).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN),
    currentValuePaise,
    unrealisedGainPaise: currentValuePaise - costValuePaise,
    xirr: xirrOutcome(cashFlows(txns, lots, valueDate, currentValuePaise)),
  };
}
