import type { DbOrTx, Prisma } from "../db/client.js";

/** A payment as stored. */
export type PaymentRow = Prisma.PaymentGetPayload<object>;

export interface NewPaymentRow {
  id: string;
  distributorId: string;
  investorId: string;
  orderId: string;
  basketId: string | null;
  mode: string;
  amount: Prisma.Decimal;
  mandateId: string | null;
  bankAccountId: string | null;
  details: Prisma.JsonValue;
}

/** Inserts a PENDING payment. */
export async function insertPayment(tx: DbOrTx, payment: NewPaymentRow): Promise<PaymentRow> {
  return tx.payment.create({ data: { ...payment, status: "PENDING", details: (payment.details ?? {}) as Prisma.InputJsonValue } });
}

/** One payment of one distributor; another distributor's id finds nothing. */
export async function findPayment(db: DbOrTx, distributorId: string, id: string): Promise<PaymentRow | null> {
  return db.payment.findFirst({ where: { id, distributorId } });
}

/** For jobs, which act on behalf of whichever distributor owns the payment. */
export async function findPaymentById(db: DbOrTx, id: string): Promise<PaymentRow | null> {
  return db.payment.findUnique({ where: { id } });
}

export async function getPaymentById(db: DbOrTx, id: string): Promise<PaymentRow> {
  return db.payment.findUniqueOrThrow({ where: { id } });
}

/** The latest payment of each order (an order may have a failed payment and a newer one). */
export async function latestPaymentIds(db: DbOrTx, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.payment.findMany({ where: { orderId: { in: orderIds } }, select: { id: true, orderId: true }, orderBy: { id: "asc" } });
  return new Map(rows.map((r) => [r.orderId, r.id]));
}

export async function capturedPaymentIds(db: DbOrTx, orderId: string): Promise<string[]> {
  const rows = await db.payment.findMany({ where: { orderId, status: "CAPTURED" }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** Payments the gateway may still move (PENDING, or CAPTURED and refundable), in id order. */
export async function paymentsToSettle(db: DbOrTx, afterId: string, limit: number) {
  return db.payment.findMany({
    where: { status: { in: ["PENDING", "CAPTURED"] }, gatewayReference: { not: null }, id: { gt: afterId } },
    select: { id: true, status: true },
    orderBy: { id: "asc" },
    take: limit,
  });
}

/** The gateway's reference, set once. */
export async function setGatewayReference(db: DbOrTx, id: string, gatewayReference: string): Promise<void> {
  await db.payment.updateMany({ where: { id, gatewayReference: null }, data: { gatewayReference } });
}

/** A conditional move: false when the payment was not in `from` any more. */
export async function movePaymentRow(
  tx: DbOrTx,
  id: string,
  from: string,
  data: { status: string; providerRemark: string | null; capturedAt?: Date; refundedAt?: Date },
): Promise<boolean> {
  const { count } = await tx.payment.updateMany({ where: { id, status: from }, data });
  return count === 1;
}
