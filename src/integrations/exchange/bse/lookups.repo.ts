import type { DbOrTx } from "../../../platform/db/client.js";

/**
 * What the adapter reads of the service's own records to fill requests the port's arguments do not
 * carry (the exchange keys mandates and payments by its own ids and the client code).
 */

/** When the investor with this client code was created (the FATCA declaration's time), or null. */
export async function investorCreatedAt(db: DbOrTx, clientCode: string): Promise<Date | null> {
  const row = await db.investor.findUnique({ where: { uccCode: clientCode }, select: { createdAt: true } });
  return row?.createdAt ?? null;
}

/** A mandate's client code, exchange mandate id and creation time. */
export async function mandateAtExchange(
  db: DbOrTx,
  mandateId: string,
): Promise<{ clientCode: string; exchangeMandateId: string | null; createdAt: Date } | null> {
  const row = await db.mandate.findUnique({
    where: { id: mandateId },
    select: { exchangeMandateId: true, createdAt: true, investor: { select: { uccCode: true } } },
  });
  return row ? { clientCode: row.investor.uccCode, exchangeMandateId: row.exchangeMandateId, createdAt: row.createdAt } : null;
}

/** The exchange order numbers of orders (those without one are left out). */
export async function exchangeOrderNumbers(db: DbOrTx, orderIds: string[]): Promise<Map<string, string>> {
  const rows = await db.order.findMany({ where: { id: { in: orderIds }, exchangeOrderNumber: { not: null } }, select: { id: true, exchangeOrderNumber: true } });
  return new Map(rows.map((row) => [row.id, row.exchangeOrderNumber!]));
}

/** Each payment's client code and its order's exchange number (null when the order has none). */
export async function paymentsAtExchange(
  db: DbOrTx,
  paymentIds: string[],
): Promise<Array<{ paymentId: string; mode: string; clientCode: string; exchangeOrderNumber: string | null }>> {
  const rows = await db.payment.findMany({
    where: { id: { in: paymentIds } },
    select: { id: true, mode: true, orderId: true, investorId: true },
  });
  const orders = await db.order.findMany({ where: { id: { in: rows.map((r) => r.orderId) } }, select: { id: true, exchangeOrderNumber: true } });
  const investors = await db.investor.findMany({ where: { id: { in: rows.map((r) => r.investorId) } }, select: { id: true, uccCode: true } });
  const orderNumber = new Map(orders.map((o) => [o.id, o.exchangeOrderNumber]));
  const clientCode = new Map(investors.map((i) => [i.id, i.uccCode]));
  return rows.map((row) => ({ paymentId: row.id, mode: row.mode, clientCode: clientCode.get(row.investorId)!, exchangeOrderNumber: orderNumber.get(row.orderId) ?? null }));
}
