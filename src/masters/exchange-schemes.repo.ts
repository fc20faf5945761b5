import type { DbOrTx, Prisma } from "../db/client.js";
import { narrowTo } from "../lib/closed-set.js";

/** exchange_schemes.transaction_mode: the holding modes an exchange code serves (the master's P, D, DP). */
export const EXCHANGE_TRANSACTION_MODES = ["PHYSICAL", "DEMAT", "BOTH"] as const;
export type ExchangeTransactionMode = (typeof EXCHANGE_TRANSACTION_MODES)[number];

type StoredExchangeScheme = Prisma.ExchangeSchemeGetPayload<object>;
export type ExchangeSchemeRow = Omit<StoredExchangeScheme, "transactionMode"> & { transactionMode: ExchangeTransactionMode };
export type ExchangeSipRuleRow = Prisma.ExchangeSipRuleGetPayload<object>;

export function toExchangeSchemeRow(row: StoredExchangeScheme): ExchangeSchemeRow {
  return { ...row, transactionMode: narrowTo(EXCHANGE_TRANSACTION_MODES, row.transactionMode, "exchange_schemes.transaction_mode") };
}

/** The exchange codes of one of our schemes, in the exchange's row order. */
export async function exchangeSchemesOf(db: DbOrTx, schemeCode: string): Promise<ExchangeSchemeRow[]> {
  const rows = await db.exchangeScheme.findMany({ where: { schemeCode }, orderBy: [{ uniqueNo: "asc" }, { code: "asc" }] });
  return rows.map(toExchangeSchemeRow);
}

/** One exchange code's row, or null. */
export async function findExchangeScheme(db: DbOrTx, code: string): Promise<ExchangeSchemeRow | null> {
  const row = await db.exchangeScheme.findUnique({ where: { code } });
  return row && toExchangeSchemeRow(row);
}

/** The SIP rules of exchange codes, by code then frequency. */
export async function sipRulesOf(db: DbOrTx, codes: readonly string[]): Promise<ExchangeSipRuleRow[]> {
  if (codes.length === 0) return [];
  return db.exchangeSipRule.findMany({ where: { code: { in: [...codes] } }, orderBy: [{ code: "asc" }, { frequency: "asc" }] });
}
