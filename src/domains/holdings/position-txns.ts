import { Decimal } from "../../platform/lib/money.js";
import { TXN_TYPES, type PositionTxn, type TxnType } from "../portfolio/transactions.js";
import type { PositionKey, PositionTxnRow } from "./position-txns.repo.js";

const KNOWN_TYPES: ReadonlySet<string> = new Set(TXN_TYPES);

/** The one place holding_transactions' columns become the portfolio computations' PositionTxn. */
export function toPositionTxn(row: Omit<PositionTxnRow, keyof PositionKey>): PositionTxn {
  return {
    txnNo: row.txn_no,
    type: KNOWN_TYPES.has(row.type) ? (row.type as TxnType) : "OTHER",
    tradeDate: row.trade_date,
    units: new Decimal(row.units ?? "0"),
    amountPaise: BigInt(row.amount_paise ?? "0"),
    stampDutyPaise: BigInt(row.stamp_duty_paise ?? "0"),
    reversesTxnNo: row.reverses_txn_no,
  };
}

export const positionKeyText = (k: PositionKey) => `${k.registrar}\u0000${k.folio_no}\u0000${k.scheme_code}`;

/** The rows grouped by position, each group in the query's (date) order. */
export function groupByPosition(rows: readonly PositionTxnRow[]): Map<string, PositionTxn[]> {
  const groups = new Map<string, PositionTxn[]>();
  for (const row of rows) {
    const key = positionKeyText(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(toPositionTxn(row));
  }
  return groups;
}

/** ELSS by the AMFI category of the scheme master ("Equity Scheme - ELSS"). */
export const isElssCategory = (category: string | null) => category !== null && /\belss\b/i.test(category);
