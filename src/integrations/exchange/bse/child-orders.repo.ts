import type { DbOrTx, Prisma } from "../../../platform/db/client.js";
import { narrowTo } from "../../../platform/lib/closed-set.js";

/** bse_child_orders.buy_sell (the database checks the same list). */
export const BSE_BUY_SELL = ["P", "R"] as const;

export type BseChildOrder = Omit<Prisma.BseChildOrderGetPayload<object>, "buySell"> & { buySell: (typeof BSE_BUY_SELL)[number] };

/** The exchange's installment orders matched to these (child) orders. */
export async function childOrdersOf(db: DbOrTx, orderIds: readonly string[]): Promise<BseChildOrder[]> {
  const rows = await db.bseChildOrder.findMany({ where: { orderId: { in: [...orderIds] } } });
  return rows.map((row) => ({ ...row, buySell: narrowTo(BSE_BUY_SELL, row.buySell, "bse_child_orders.buy_sell") }));
}

/** The exchange order numbers of a registration already matched to one of our child orders (an STP's switch-in ones too). */
export async function matchedNumbers(db: DbOrTx, registrationOrderId: string): Promise<Set<string>> {
  const rows = await db.bseChildOrder.findMany({ where: { registrationOrderId }, select: { exchangeOrderNumber: true, switchInOrderNumber: true } });
  return new Set(rows.flatMap((r) => (r.switchInOrderNumber ? [r.exchangeOrderNumber, r.switchInOrderNumber] : [r.exchangeOrderNumber])));
}

/** Records a match (once: a second match of the same order or number changes nothing). */
export async function insertChildOrder(
  db: DbOrTx,
  row: { orderId: string; registrationOrderId: string; exchangeOrderNumber: string; switchInOrderNumber?: string | null; orderDate: Date; buySell: "P" | "R" },
): Promise<boolean> {
  const { count } = await db.bseChildOrder.createMany({ data: [row], skipDuplicates: true });
  return count === 1;
}
