import type { Decimal } from "../../platform/lib/money.js";
import { fromMilli, proRata, toMilli } from "./exact.js";
import { SALE_TYPES, UNIT_ADDING, UNIT_REMOVING, type PositionTxn, type TxnType } from "./transactions.js";

/**
 * A position's FIFO lots from its transactions (reports.md, Lots). Each unit-adding transaction is a lot whose
 * cost is its amount plus its stamp duty (a bonus costs nothing); each unit-removing one consumes the oldest
 * lots first. A reversal and the transaction it names are both dropped before anything is built.
 *
 * Rounding: the cost of part of a lot is `lot cost * units / lot units` rounded half-even to the paisa, from
 * what the lot still holds; the rest stays with the lot, so a lot consumed in parts costs exactly its whole.
 * A sale's value is shared among the lots it consumed by the same rule.
 *
 * Units the transactions do not explain (the registrar's balance is more than they add up to) were held before
 * our history: an OPENING lot of unknown date and cost, first in FIFO order. A balance below the history, or a
 * sale of more units than the lots hold (UNEXPLAINED), also makes `lotsComplete` false. Nothing is guessed.
 */

export type LotSource = "LOT" | "OPENING" | "UNEXPLAINED";

export interface Lot {
  source: "LOT" | "OPENING";
  /** null for the opening lot. */
  txnNo: string | null;
  type: TxnType | null;
  acquiredOn: string | null;
  /** The opening lot was acquired on or before the first transaction's date (null when there is none). */
  acquiredOnOrBefore: string | null;
  /** Units as whole thousandths (exact.ts), as acquired. */
  originalMilli: bigint;
  amountPaise: bigint | null;
  stampDutyPaise: bigint | null;
  /** What the lot still holds, in whole thousandths, and the cost of that. */
  milli: bigint;
  costPaise: bigint | null;
}

/** What a sale took from one lot; from the opening lot or beyond all lots (UNEXPLAINED), no date and no cost. */
export type ConsumedLot =
  | { source: "LOT"; lotTxnNo: string; acquiredOn: string; units: Decimal; costPaise: bigint; saleValuePaise: bigint }
  | { source: "OPENING" | "UNEXPLAINED"; lotTxnNo: null; acquiredOn: null; units: Decimal; costPaise: null; saleValuePaise: bigint };

export interface Disposal {
  txnNo: string;
  type: TxnType;
  soldOn: string;
  units: Decimal;
  amountPaise: bigint;
  consumed: ConsumedLot[];
}

export interface LotsResult {
  lotsComplete: boolean;
  /** Registrar's balance minus what the transactions explain (positive: the opening lot), in whole thousandths. */
  unexplainedMilli: bigint;
  openLots: Lot[];
  /** Redemptions, switch-outs, STP-outs and SWPs, in date order. */
  sales: Disposal[];
  /** Transfers out: they consume lots but are not sales. */
  transfersOut: Disposal[];
  /** Reversals whose transaction is not in the history (nothing was cancelled). */
  unmatchedReversals: string[];
}

interface WorkingLot {
  lot: Omit<Lot, "milli" | "costPaise">;
  /** What the lot still holds (its originalMilli until a sale takes some). */
  milli: bigint;
  cost: bigint | null;
}

/** Drops each reversal with the transaction it names; a reversal naming nothing we hold is reported. */
export function applyReversals(txns: readonly PositionTxn[]): { effective: PositionTxn[]; unmatchedReversals: string[] } {
  const known = new Set<string | null>(txns.filter((t) => t.type !== "REVERSAL").map((t) => t.txnNo));
  const reversed = new Set<string>();
  const unmatchedReversals: string[] = [];
  for (const t of txns) {
    if (t.type !== "REVERSAL") continue;
    if (known.has(t.reversesTxnNo)) reversed.add(t.reversesTxnNo!);
    else unmatchedReversals.push(t.txnNo);
  }
  const effective = txns.filter((t) => t.type !== "REVERSAL" && !reversed.has(t.txnNo));
  // A stable sort: same-day transactions keep the feed's order. Dates are YYYY-MM-DD, so their texts sort as the days do.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: V8's sort acts only on a negative answer, so 0 and 1 sort alike (a shuffle of 120 in lots.test.ts)
  effective.sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
  return { effective, unmatchedReversals };
}

function newLot(t: PositionTxn, milli: bigint): WorkingLot {
  const bonus = t.type === "BONUS";
  const amountPaise = bonus ? 0n : t.amountPaise;
  const stampDutyPaise = bonus ? 0n : t.stampDutyPaise;
  return {
    lot: { source: "LOT", txnNo: t.txnNo, type: t.type, acquiredOn: t.tradeDate, acquiredOnOrBefore: t.tradeDate, originalMilli: milli, amountPaise, stampDutyPaise },
    milli,
    cost: amountPaise + stampDutyPaise,
  };
}

function consume(queue: WorkingLot[], t: PositionTxn, units: bigint): Disposal {
  let saleMilli = units;
  let saleValue = t.amountPaise;
  const consumed: ConsumedLot[] = [];
  const take = (part: Omit<ConsumedLot, "units" | "saleValuePaise">, milli: bigint) => {
    const value = proRata(saleValue, milli, saleMilli);
    consumed.push({ ...part, units: fromMilli(milli), saleValuePaise: value } as ConsumedLot);
    saleMilli -= milli;
    saleValue -= value;
  };
  while (saleMilli > 0n && queue.length > 0) {
    const head = queue[0]!;
    // Stryker disable next-line EqualityOperator: when equal, either side is the same number
    const milli = head.milli < saleMilli ? head.milli : saleMilli;
    const cost = head.cost === null ? null : proRata(head.cost, milli, head.milli);
    take({ source: head.lot.source, lotTxnNo: head.lot.txnNo, acquiredOn: head.lot.acquiredOn, costPaise: cost } as ConsumedLot, milli);
    head.milli -= milli;
    if (cost !== null) head.cost = head.cost! - cost;
    if (head.milli === 0n) queue.shift();
  }
  if (saleMilli > 0n) take({ source: "UNEXPLAINED", lotTxnNo: null, acquiredOn: null, costPaise: null }, saleMilli);
  return { txnNo: t.txnNo, type: t.type, soldOn: t.tradeDate, units: t.units.abs(), amountPaise: t.amountPaise, consumed };
}

/** `registrarBalance` as a decimal or its text (a numeric read as text, as the lookups read it). */
export function buildLots(txns: readonly PositionTxn[], registrarBalance: Decimal | string): LotsResult {
  const { effective, unmatchedReversals } = applyReversals(txns);
  // Each transaction with its units as thousandths, read once (the lookups' hot path), only where it moves units.
  const moves = effective.map((t) => ({ t, milli: UNIT_ADDING.has(t.type) || UNIT_REMOVING.has(t.type) ? toMilli(t.units) : 0n }));
  let explained = 0n;
  for (const { t, milli } of moves) {
    if (UNIT_ADDING.has(t.type)) explained += milli;
    if (UNIT_REMOVING.has(t.type)) explained -= milli;
  }
  const unexplained = toMilli(registrarBalance) - explained;
  const queue: WorkingLot[] = [];
  if (unexplained > 0n) {
    const first = effective[0]?.tradeDate ?? null;
    queue.push({
      lot: { source: "OPENING", txnNo: null, type: null, acquiredOn: null, acquiredOnOrBefore: first, originalMilli: unexplained, amountPaise: null, stampDutyPaise: null },
      milli: unexplained,
      cost: null,
    });
  }
  const sales: Disposal[] = [];
  const transfersOut: Disposal[] = [];
  for (const { t, milli } of moves) {
    // A lot of no units (a zero-unit line) would hold nothing to consume.
    if (UNIT_ADDING.has(t.type)) {
      if (milli > 0n) queue.push(newLot(t, milli));
    } else if (UNIT_REMOVING.has(t.type)) (SALE_TYPES.has(t.type) ? sales : transfersOut).push(consume(queue, t, milli));
  }
  const overSold = [...sales, ...transfersOut].some((d) => d.consumed.some((c) => c.source === "UNEXPLAINED"));
  return {
    lotsComplete: unexplained === 0n && !overSold,
    unexplainedMilli: unexplained,
    openLots: queue.map((w) => ({ ...w.lot, milli: w.milli, costPaise: w.cost })),
    sales,
    transfersOut,
    unmatchedReversals,
  };
}
