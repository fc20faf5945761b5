import type { DbOrTx, Prisma } from "../../../platform/db/client.js";
import { narrowOrNull, narrowTo } from "../../../platform/lib/closed-set.js";

/** bse_order_refs.outcome (the database checks the same list; null: sent, answer unknown). */
export const BSE_ORDER_REF_OUTCOMES = ["ACCEPTED", "REJECTED", "NOT_PLACED"] as const;
export type BseOrderRefOutcome = (typeof BSE_ORDER_REF_OUTCOMES)[number];

/**
 * bse_order_refs.kind: what a TransNo was sent for (the database checks the same list). A registration's
 * exchange_order_number is its registration number, a cancellation's the registration it cancels.
 */
export const BSE_ORDER_REF_KINDS = ["LUMPSUM", "SWITCH", "SIP", "XSIP", "STP", "SWP", "SIP_CANCEL", "XSIP_CANCEL", "STP_CANCEL", "SWP_CANCEL"] as const;
export type BseOrderRefKind = (typeof BSE_ORDER_REF_KINDS)[number];
export type BseCancelKind = Extract<BseOrderRefKind, `${string}_CANCEL`>;

export const isCancelKind = (kind: BseOrderRefKind): kind is BseCancelKind => kind.endsWith("_CANCEL");
/** A systematic plan's registration: not an order of the exchange's reports (its installments are). */
export const isRegistrationKind = (kind: BseOrderRefKind): boolean => kind === "SIP" || kind === "XSIP" || kind === "STP" || kind === "SWP";

export type BseOrderRef = Omit<Prisma.BseOrderRefGetPayload<object>, "outcome" | "kind"> & { outcome: BseOrderRefOutcome | null; kind: BseOrderRefKind };

/** Records a TransNo as sent for an order (before it is sent: a crash after sending still leaves it). */
export async function insertOrderRef(
  db: DbOrTx,
  ref: { transNo: string; orderId: string; sentAt: Date; kind: BseOrderRefKind; request?: Prisma.InputJsonValue },
): Promise<void> {
  await db.bseOrderRef.create({ data: ref });
}

/** The exchange's answer to a TransNo (or NOT_PLACED). */
export async function recordOutcome(
  db: DbOrTx,
  transNo: string,
  answer: { outcome: BseOrderRefOutcome; exchangeOrderNumber: string | null; remark: string | null; secondOrderNumber?: string | null },
): Promise<void> {
  await db.bseOrderRef.update({ where: { transNo }, data: { ...answer, answeredAt: new Date() } });
}

/** The order's TransNos, oldest first. */
export async function orderRefs(db: DbOrTx, orderId: string): Promise<BseOrderRef[]> {
  return refsOfOrders(db, [orderId]);
}

/** The TransNos of these orders, oldest first. */
export async function refsOfOrders(db: DbOrTx, orderIds: readonly string[]): Promise<BseOrderRef[]> {
  const rows = await db.bseOrderRef.findMany({ where: { orderId: { in: [...orderIds] } }, orderBy: [{ sentAt: "asc" }, { transNo: "asc" }] });
  return rows.map(narrowRef);
}

function narrowRef(row: Prisma.BseOrderRefGetPayload<object>): BseOrderRef {
  return {
    ...row,
    outcome: narrowOrNull(BSE_ORDER_REF_OUTCOMES, row.outcome, "bse_order_refs.outcome"),
    kind: narrowTo(BSE_ORDER_REF_KINDS, row.kind, "bse_order_refs.kind"),
  };
}

/** The TransNos sent on an India day (YYYY-MM-DD): a TransNo starts with its day, YYYYMMDD. */
export async function refsOfDay(db: DbOrTx, day: string): Promise<BseOrderRef[]> {
  const rows = await db.bseOrderRef.findMany({ where: { transNo: { startsWith: day.replaceAll("-", "") } }, orderBy: { transNo: "asc" } });
  return rows.map(narrowRef);
}
