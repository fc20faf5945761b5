import { RowRejected, toFixedDecimal, type FeedRow, type ProblemItem, type Registrar, type FeedProblem } from "./feed.js";
import type { TransactionType } from "./transaction-types.js";

/**
 * What both transaction feed readers (CAMS WBR2, KFintech MFSD201) produce: one registrar transaction, as the
 * registrar reported it. Amounts are magnitudes (a feed signs redemptions and reversals its own way; the type
 * says which way the money and units went): paise as integer text, units to 3 decimals and NAV to 4 as exact
 * decimal text. Never a float.
 */
export interface FeedTransaction {
  registrar: Registrar;
  /** The distributor code the row is reported under, normalised to `ARN-<digits>` when it has that shape. */
  arn: string;
  amc_code: string;
  folio_no: string;
  /** The registrar's product (scheme) code. */
  scheme_code: string;
  scheme_name: string | null;
  isin: string | null;
  type: TransactionType;
  /** The registrar's own type code and description, as given. */
  registrar_type_code: string;
  registrar_type_description: string | null;
  /** The registrar's transaction number (unique with the registrar and the AMC / fund code). */
  txn_no: string;
  /** A REVERSAL's: the number of the transaction it reverses, when the layout carries it. */
  reverses_txn_no: string | null;
  trade_date: string;
  post_date: string | null;
  amount_paise: string | null;
  units: string | null;
  nav: string | null;
  stamp_duty_paise: string | null;
  stt_paise: string | null;
  tds_paise: string | null;
  /** The first holder's PAN, upper case (only its keyed hash is stored). */
  pan: string | null;
}

export type TransactionItem = { kind: "transaction"; transaction: FeedTransaction } | ProblemItem;

export const wrapTransaction = (transaction: FeedTransaction): TransactionItem => ({ kind: "transaction", transaction });

/** Collects a transaction feed into memory: for tests and small files; the importer streams the items instead. */
export async function collectTransactions(
  batches: AsyncIterable<TransactionItem[]>,
): Promise<{ transactions: FeedTransaction[]; problems: FeedProblem[] }> {
  const result = { transactions: [] as FeedTransaction[], problems: [] as FeedProblem[] };
  for await (const items of batches) {
    for (const item of items) {
      if (item.kind === "transaction") result.transactions.push(item.transaction);
      else result.problems.push(item.problem);
    }
  }
  return result;
}

/** The first of `columns` the file has a value in (the DBF exports cut names to 10 characters: `trxn_natur`). */
export function firstOf(row: FeedRow, ...columns: string[]): string {
  for (const column of columns) {
    const value = row.get(column).trim();
    if (value !== "") return value;
  }
  return "";
}

/** A decimal's magnitude with `scale` decimals (sign dropped), null when blank; a RowRejected when not a number. */
export function magnitude(row: FeedRow, column: string, scale: number, text = row.get(column).trim()): string | null {
  if (text === "") return null;
  const value = toFixedDecimal(text, scale);
  if (value === undefined) throw new RowRejected(`${column} is not a number: "${text}"`);
  return value.startsWith("-") ? value.slice(1) : value;
}

/** Rupees (`1,234.5`) as integer paise text (`123450`), rounded half-up beyond 2 decimals; null when blank. */
export function paise(row: FeedRow, column: string, text = row.get(column).trim()): string | null {
  const rupees = magnitude(row, column, 2, text);
  if (rupees === null) return null;
  return rupees.replace(".", "").replace(/^0+(?=\d)/, "");
}

/** A transaction number as text: spreadsheet exports write `12345.0` for 12345; blank or 0 is none. */
export function txnNumber(text: string): string | null {
  const value = text.trim().replace(/\.0*$/, "");
  return value === "" || /^0+$/.test(value) ? null : value;
}

export function requiredTxnNumber(row: FeedRow, column: string): string {
  const value = txnNumber(row.get(column));
  if (value === null) throw new RowRejected(`${column} is empty`);
  return value;
}
