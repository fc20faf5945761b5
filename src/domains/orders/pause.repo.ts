import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { PAUSE_STATUSES, type PauseStatus } from "./order.states.js";

/** SIP and XSIP pauses (order_pauses) and what they do to the schedule (order_installments PAUSED, the plan's end moved). */

export type StoredPause = Prisma.OrderPauseGetPayload<object>;
export type PauseRow = Omit<StoredPause, "status"> & { status: PauseStatus };

export const toPauseRow = (row: StoredPause): PauseRow => ({ ...row, status: narrowTo(PAUSE_STATUSES, row.status, "order_pauses.status") });

/** Locks a registration's row until the transaction ends, so two pauses (or a pause and a resume) of it take turns. */
export async function lockForPause(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${orderId} FOR UPDATE`;
}

export async function pausesOf(db: DbOrTx, orderId: string): Promise<PauseRow[]> {
  const rows = await db.orderPause.findMany({ where: { orderId }, orderBy: [{ requestedAt: "asc" }, { id: "asc" }] });
  return rows.map(toPauseRow);
}

/** The latest pause of each of these orders (by when it was asked), for the order view. */
export async function latestPauses(db: DbOrTx, orderIds: string[]): Promise<Map<string, PauseRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.orderPause.findMany({ where: { orderId: { in: orderIds } }, orderBy: [{ requestedAt: "asc" }, { id: "asc" }] });
  return new Map(rows.map((row) => [row.orderId, toPauseRow(row)]));
}

export async function findPause(db: DbOrTx, id: string): Promise<PauseRow | null> {
  const row = await db.orderPause.findUnique({ where: { id } });
  return row && toPauseRow(row);
}

export async function insertPause(tx: DbOrTx, data: Omit<StoredPause, "createdAt" | "updatedAt" | "requestedAt" | "resumedAt" | "remark">): Promise<PauseRow> {
  return toPauseRow(await tx.orderPause.create({ data }));
}

/** Moves a pause on from `from`; false when it was not in that status any more (another caller moved it). */
export async function movePause(tx: DbOrTx, id: string, from: PauseStatus, to: PauseStatus, extra: { remark?: string; resumedAt?: Date } = {}): Promise<boolean> {
  const { count } = await tx.orderPause.updateMany({ where: { id, status: from }, data: { status: to, ...extra } });
  return count === 1;
}

export async function sipRule(db: DbOrTx, code: string, frequency: string) {
  return db.exchangeSipRule.findUnique({ where: { code_frequency: { code, frequency } }, select: { pauseAllowed: true, pauseMinInstallments: true, pauseMaxInstallments: true, pauseModificationCount: true, active: true } });
}

export async function scheduledOf(db: DbOrTx, orderId: string) {
  return db.orderInstallment.findMany({ where: { orderId, status: "SCHEDULED" }, orderBy: { installmentNo: "asc" }, select: { installmentNo: true, dueDate: true } });
}

export async function lastInstallmentNo(db: DbOrTx, orderId: string): Promise<number> {
  const row = await db.orderInstallment.findFirst({ where: { orderId }, orderBy: { installmentNo: "desc" }, select: { installmentNo: true } });
  return row?.installmentNo ?? 0;
}

/** SCHEDULED -> PAUSED for the numbered installments. */
export async function markPaused(tx: DbOrTx, orderId: string, numbers: number[]): Promise<void> {
  await tx.orderInstallment.updateMany({ where: { orderId, status: "SCHEDULED", installmentNo: { in: numbers } }, data: { status: "PAUSED" } });
}

/** PAUSED -> SCHEDULED for a pause's installments (from `from`, `count` of them) due on or after `onOrAfter`; how many. */
export async function unpause(tx: DbOrTx, orderId: string, from: number, count: number, onOrAfter?: Date): Promise<Array<{ installmentNo: number; dueDate: Date }>> {
  const where = { orderId, status: "PAUSED", installmentNo: { gte: from, lt: from + count }, ...(onOrAfter ? { dueDate: { gte: onOrAfter } } : {}) };
  const rows = await tx.orderInstallment.findMany({ where, orderBy: { installmentNo: "asc" }, select: { installmentNo: true, dueDate: true } });
  await tx.orderInstallment.updateMany({ where, data: { status: "SCHEDULED" } });
  return rows;
}

/** Removes the last `count` SCHEDULED installments appended for a pause (numbered from `addedFromNo`): the plan's end moved back. */
export async function dropAppended(tx: DbOrTx, orderId: string, addedFromNo: number, count: number): Promise<void> {
  if (count <= 0) return;
  const rows = await tx.orderInstallment.findMany({ where: { orderId, status: "SCHEDULED", installmentNo: { gte: addedFromNo } }, orderBy: { installmentNo: "desc" }, take: count, select: { installmentNo: true } });
  await tx.orderInstallment.deleteMany({ where: { orderId, status: "SCHEDULED", installmentNo: { in: rows.map((r) => r.installmentNo) } } });
}
