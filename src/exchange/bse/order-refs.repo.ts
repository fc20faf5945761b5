import type { DbOrTx, Prisma } from "../../db/client.js";
import { narrowOrNull } from "../../lib/closed-set.js";

/** bse_order_refs.outcome (the database checks the same list; null: sent, answer unknown). */
export const BSE_ORDER_REF_OUTCOMES = ["ACCEPTED", "REJECTED", "NOT_PLACED"] as const;
export type BseOrderRefOutcome = (typeof BSE_ORDER_REF_OUTCOMES)[number];

export type BseOrderRef = Omit<Prisma.BseOrderRefGetPayload<object>, "outcome"> & { outcome: BseOrderRefOutcome | null };

/** Records a TransNo as sent for an order (before it is sent: a crash after sending still leaves it). */
export async function insertOrderRef(db: DbOrTx, ref: { transNo: string; orderId: string; sentAt: Date }): Promise<void> {
  await db.bseOrderRef.create({ data: ref });
}

/** The exchange's answer to a TransNo (or NOT_PLACED). */
export async function recordOutcome(
  db: DbOrTx,
  transNo: string,
  answer: { outcome: BseOrderRefOutcome; exchangeOrderNumber: string | null; remark: string | null },
): Promise<void> {
  await db.bseOrderRef.update({ where: { transNo }, data: { ...answer, answeredAt: new Date() } });
}

/** The order's TransNos, oldest first. */
export async function orderRefs(db: DbOrTx, orderId: string): Promise<BseOrderRef[]> {
  const rows = await db.bseOrderRef.findMany({ where: { orderId }, orderBy: [{ sentAt: "asc" }, { transNo: "asc" }] });
  return rows.map((row) => ({ ...row, outcome: narrowOrNull(BSE_ORDER_REF_OUTCOMES, row.outcome, "bse_order_refs.outcome") }));
}
