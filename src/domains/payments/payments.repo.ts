import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { PAYMENT_MODES, PAYMENT_STATUSES, type PaymentMode, type PaymentStatus } from "./payment.states.js";
import { PAYMENT_FAILURE_CODES, type PaymentFailureCode } from "../../integrations/exchange/outcomes.js";

/** A payment as stored. */
export type PaymentRow = Omit<Prisma.PaymentGetPayload<object>, "mode" | "status" | "failureCode"> & {
  mode: PaymentMode;
  status: PaymentStatus;
  failureCode: PaymentFailureCode | null;
};

function toRow(row: Prisma.PaymentGetPayload<object>): PaymentRow {
  return {
    ...row,
    mode: narrowTo(PAYMENT_MODES, row.mode, "payments.mode"),
    status: narrowTo(PAYMENT_STATUSES, row.status, "payments.status"),
    failureCode: row.failureCode === null ? null : narrowTo(PAYMENT_FAILURE_CODES, row.failureCode, "payments.failure_code"),
  };
}

export interface NewPaymentRow {
  id: string;
  distributorId: string;
  investorId: string;
  orderId: string;
  basketId: string | null;
  mode: PaymentMode;
  amount: Prisma.Decimal;
  mandateId: string | null;
  bankAccountId: string | null;
  details: Prisma.JsonValue;
}

/** Inserts a PENDING payment. */
export async function insertPayment(tx: DbOrTx, payment: NewPaymentRow): Promise<PaymentRow> {
  return toRow(await tx.payment.create({ data: { ...payment, status: "PENDING", details: (payment.details ?? {}) as Prisma.InputJsonValue } }));
}

/** One payment of one distributor; another distributor's id finds nothing. */
export async function findPayment(db: DbOrTx, distributorId: string, id: string): Promise<PaymentRow | null> {
  const row = await db.payment.findFirst({ where: { id, distributorId } });
  return row && toRow(row);
}

/** For jobs, which act on behalf of whichever distributor owns the payment. */
export async function findPaymentById(db: DbOrTx, id: string): Promise<PaymentRow | null> {
  const row = await db.payment.findUnique({ where: { id } });
  return row && toRow(row);
}

export async function getPaymentById(db: DbOrTx, id: string): Promise<PaymentRow> {
  return toRow(await db.payment.findUniqueOrThrow({ where: { id } }));
}

/** One page of the distributor's payments, newest first (`limit + 1` rows: the extra one says a next page exists). */
export async function listPayments(
  db: DbOrTx,
  filter: { distributorId: string; status?: PaymentStatus; orderId?: string; afterId?: string; limit: number },
): Promise<PaymentRow[]> {
  const rows = await db.payment.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.orderId ? { orderId: filter.orderId } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}

/** The latest payment of an order (null when it has none). */
export async function latestPaymentOf(db: DbOrTx, orderId: string): Promise<PaymentRow | null> {
  const row = await db.payment.findFirst({ where: { orderId }, orderBy: { id: "desc" } });
  return row && toRow(row);
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
export async function paymentsToSettle(db: DbOrTx, afterId: string, limit: number): Promise<Array<{ id: string; status: PaymentStatus }>> {
  const rows = await db.payment.findMany({
    where: { status: { in: ["PENDING", "CAPTURED"] }, gatewayReference: { not: null }, id: { gt: afterId } },
    select: { id: true, status: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((r) => ({ id: r.id, status: narrowTo(PAYMENT_STATUSES, r.status, "payments.status") }));
}

/** A conditional move: false when the payment was not in `from` any more. */
export async function movePaymentRow(
  tx: DbOrTx,
  id: string,
  from: PaymentStatus,
  data: { status: PaymentStatus; providerRemark: string | null; failureCode?: PaymentFailureCode; capturedAt?: Date; refundedAt?: Date },
): Promise<boolean> {
  const { count } = await tx.payment.updateMany({ where: { id, status: from }, data });
  return count === 1;
}

/** The investor's account a payment comes from: the one named, else the primary (never a removed one); number encrypted. */
export async function paymentSourceAccount(
  db: DbOrTx,
  investorId: string,
  bankAccountId: string | null,
): Promise<{ accountNumberEncrypted: string; ifsc: string } | null> {
  return db.bankAccount.findFirst({
    where: { investorId, removedAt: null, ...(bankAccountId ? { id: bankAccountId } : { isPrimary: true }) },
    select: { accountNumberEncrypted: true, ifsc: true },
  });
}

/** The gateway's reference with `details` as merged with its answer (payments.service.ts recordGatewayAnswer), once. */
export async function setGatewayAnswer(db: DbOrTx, id: string, gatewayReference: string, details: Record<string, unknown>): Promise<void> {
  await db.payment.updateMany({ where: { id, gatewayReference: null }, data: { gatewayReference, details: JSON.parse(JSON.stringify(details)) } });
}
