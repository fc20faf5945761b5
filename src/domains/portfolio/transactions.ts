import type { Decimal } from "../../platform/lib/money.js";

/** The closed set of transaction types of the registrars' feeds (issue 27), the registrar's own code kept beside it elsewhere. */
export const TXN_TYPES = [
  "PURCHASE", "SIP", "SWITCH_IN", "STP_IN", "REDEMPTION", "SWITCH_OUT", "STP_OUT", "SWP",
  "DIVIDEND_PAYOUT", "DIVIDEND_REINVESTMENT", "BONUS", "TRANSFER_IN", "TRANSFER_OUT", "REVERSAL", "OTHER",
] as const;
export type TxnType = (typeof TXN_TYPES)[number];

/** Types that add units: each one is a lot (reports.md, Lots). */
export const UNIT_ADDING: ReadonlySet<TxnType> = new Set(["PURCHASE", "SIP", "SWITCH_IN", "STP_IN", "DIVIDEND_REINVESTMENT", "BONUS", "TRANSFER_IN"]);

/** Types that are sales for capital gains; switch-outs and STP-outs included. */
export const SALE_TYPES: ReadonlySet<TxnType> = new Set(["REDEMPTION", "SWITCH_OUT", "STP_OUT", "SWP"]);

/** Types that remove units: the sales and a transfer out (which consumes lots but is not a sale). */
export const UNIT_REMOVING: ReadonlySet<TxnType> = new Set([...SALE_TYPES, "TRANSFER_OUT"]);

/**
 * One transaction of a position (one folio, one scheme). Units and amounts are magnitudes: the type says the
 * direction (a feed's negative units on a redemption are read as their absolute value). Units have at most 3
 * decimals; money is in paise.
 */
export interface PositionTxn {
  txnNo: string;
  type: TxnType;
  /** The India business date, YYYY-MM-DD. */
  tradeDate: string;
  units: Decimal;
  amountPaise: bigint;
  stampDutyPaise: bigint;
  /** For a REVERSAL: the transaction number it cancels. */
  reversesTxnNo: string | null;
}
