import { Decimal } from "../../src/platform/lib/money.js";
import type { PositionTxn, TxnType } from "../../src/domains/portfolio/transactions.js";

/** A transaction for the portfolio's table tests: `tx("P1", "PURCHASE", "2024-01-10", "100.000", 100_000n)`. */
export function tx(txnNo: string, type: TxnType, tradeDate: string, units: string, amountPaise = 0n, fields: Partial<PositionTxn> = {}): PositionTxn {
  return { txnNo, type, tradeDate, units: new Decimal(units), amountPaise, stampDutyPaise: 0n, reversesTxnNo: null, ...fields };
}

export const dec = (value: string) => new Decimal(value);
