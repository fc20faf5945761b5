import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { INSTALLMENT_STATUSES, type InstallmentStatus } from "./order.states.js";
import { getOrderById, type Money, type OrderRow } from "./orders.repo.js";

/** A registration's schedule (order_installments): its rows written on acceptance, due, claimed by their child orders, cancelled. */

type StoredInstallment = Prisma.OrderInstallmentGetPayload<object>;

export type InstallmentRow = Omit<StoredInstallment, "status"> & { status: InstallmentStatus };

function toInstallmentRow(row: StoredInstallment): InstallmentRow {
  return { ...row, status: narrowTo(INSTALLMENT_STATUSES, row.status, "order_installments.status") };
}

export async function insertInstallments(
  tx: DbOrTx,
  rows: Array<{ orderId: string; installmentNo: number; dueDate: Date; amount: Money; units: Money }>,
): Promise<void> {
  await tx.orderInstallment.createMany({ data: rows.map((r) => ({ ...r, status: "SCHEDULED" })), skipDuplicates: true });
}

export async function listInstallments(db: DbOrTx, orderId: string): Promise<InstallmentRow[]> {
  const rows = await db.orderInstallment.findMany({ where: { orderId }, orderBy: { installmentNo: "asc" } });
  return rows.map(toInstallmentRow);
}

/**
 * SCHEDULED installments due on or before `day`, oldest first; none of a registration whose cancellation is
 * asked or confirmed (they wait for the exchange's answer: a refusal lets them come).
 */
export async function dueInstallments(db: DbOrTx, day: Date, limit: number): Promise<InstallmentRow[]> {
  const rows = await db.$queryRaw<StoredInstallment[]>`
    SELECT i.order_id AS "orderId", i.installment_no AS "installmentNo", i.due_date AS "dueDate", i.amount, i.units, i.status,
           i.child_order_id AS "childOrderId", i.created_at AS "createdAt", i.updated_at AS "updatedAt"
      FROM order_installments i
      JOIN orders o ON o.id = i.order_id
     WHERE i.status = 'SCHEDULED' AND i.due_date <= ${day}::date
       AND (o.cancellation_status IS NULL OR o.cancellation_status = 'REFUSED')
     ORDER BY i.due_date, i.order_id, i.installment_no
     LIMIT ${limit}`;
  return rows.map(toInstallmentRow);
}

/**
 * Reads a registration for creating its installment, holding a share lock until the transaction ends: a
 * cancellation asked meanwhile (an UPDATE of the row) waits for the installment, and one asked before is seen.
 */
export async function lockRegistration(tx: DbOrTx, id: string): Promise<OrderRow> {
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${id} FOR SHARE`;
  return getOrderById(tx, id);
}

export async function nextScheduledInstallment(db: DbOrTx, orderId: string): Promise<InstallmentRow | null> {
  const row = await db.orderInstallment.findFirst({ where: { orderId, status: "SCHEDULED" }, orderBy: { installmentNo: "asc" } });
  return row && toInstallmentRow(row);
}

/** Cancels a registration's SCHEDULED installments: all of them, or the one numbered. */
export async function cancelScheduledInstallments(tx: DbOrTx, orderId: string, installmentNo?: number): Promise<void> {
  await tx.orderInstallment.updateMany({ where: { orderId, status: "SCHEDULED", ...(installmentNo === undefined ? {} : { installmentNo }) }, data: { status: "CANCELLED" } });
}

/** SCHEDULED -> CREATED naming its child order; false when another caller took the installment first. */
export async function claimInstallment(tx: DbOrTx, orderId: string, installmentNo: number, childOrderId: string): Promise<boolean> {
  const { count } = await tx.orderInstallment.updateMany({ where: { orderId, installmentNo, status: "SCHEDULED" }, data: { status: "CREATED", childOrderId } });
  return count === 1;
}

/** An installment's child order as auto-cancel.ts weighs it. */
export interface InstallmentOutcome {
  installmentNo: number;
  status: string;
  paymentStatus: string;
  failureCode: string | null;
}

/**
 * Locks a registration's row until the transaction ends, so that two installments failing at once are weighed
 * one after the other (the second sees the first), and answers its installments' child orders, oldest first.
 */
export async function lockInstallmentOutcomes(tx: DbOrTx, registrationId: string): Promise<InstallmentOutcome[]> {
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${registrationId} FOR UPDATE`;
  const rows = await tx.order.findMany({
    where: { parentOrderId: registrationId, installmentNo: { not: null } },
    orderBy: { installmentNo: "asc" },
    select: { installmentNo: true, status: true, paymentStatus: true, failureCode: true },
  });
  return rows.map((r) => ({ ...r, installmentNo: r.installmentNo! }));
}
