import type { DbOrTx } from "../../platform/db/client.js";
import type { OrderStatus } from "./order.states.js";
import { ORDER_TYPE, ORDER_TYPES, type OrderType } from "./order-types.js";
import { orderStatus, orderTypeOf, toOrderRow, type OrderRow } from "./orders.repo.js";

/** The types whose orders are registrations (a schedule of installments) when they have no parent. */
const REGISTRATION_TYPES = ORDER_TYPES.filter((type) => ORDER_TYPE[type].installments !== null);

/** Orders read in pages and batches: the distributor's list, and the scans of the status sync and the dispatch recovery. */

export async function listOrders(
  db: DbOrTx,
  filter: { distributorId: string; status?: OrderStatus; investorId?: string; orderType?: OrderType; parentOrderId?: string; afterId?: string; limit: number },
): Promise<OrderRow[]> {
  const unfiltered = !filter.status && !filter.investorId && !filter.orderType && !filter.parentOrderId;
  const rows = await db.order.findMany({
    where: {
      // Unfiltered, the distributor as a closed range and the order by (distributor_id, id): with an equality the
      // planner drops distributor_id from the order, may walk orders_pkey back from the newest id and throw away
      // every newer row of other distributors; this way only orders_distributor_id_id_idx gives the order.
      distributorId: unfiltered ? { gte: filter.distributorId, lte: filter.distributorId } : filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...(filter.orderType ? { orderType: filter.orderType } : {}),
      ...(filter.parentOrderId ? { parentOrderId: filter.parentOrderId } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: unfiltered ? [{ distributorId: "desc" }, { id: "desc" }] : { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toOrderRow);
}

/**
 * The status sync's pick, word for word the predicate of its partial index (orders_at_exchange_sync_covering_idx,
 * migration 20261128094000_orders_at_exchange_covering, which also holds the columns it answers), so it reads that
 * index from `afterId` and nothing else. A registration stays
 * ACCEPTED for as long as it lives and the exchange's order status report never holds one, so only a held
 * (PENDING) registration is asked about.
 */
export const ORDERS_AT_EXCHANGE_SQL = `SELECT id, status, exchange_order_number, order_type, parent_order_id
   FROM orders
  WHERE exchange_order_number IS NOT NULL
    AND (status = 'PENDING' OR (status = 'ACCEPTED' AND (parent_order_id IS NOT NULL OR order_type NOT IN (${REGISTRATION_TYPES.map((t) => `'${t}'`).join(", ")}))))
    AND id > $1
  ORDER BY id
  LIMIT $2`;

/** Orders the exchange has (a number) and may still move: PENDING (held) or ACCEPTED (not a registration), in id order. */
export async function ordersAtExchange(db: DbOrTx, afterId: string, limit: number) {
  const rows = await db.$queryRawUnsafe<Array<{ id: string; status: string; exchange_order_number: string; order_type: string; parent_order_id: string | null }>>(ORDERS_AT_EXCHANGE_SQL, afterId, limit);
  return rows.map((row) => ({
    id: row.id, status: orderStatus(row.status), exchangeOrderNumber: row.exchange_order_number, orderType: orderTypeOf(row.order_type), parentOrderId: row.parent_order_id,
  }));
}

export interface UndispatchedOrder {
  id: string;
  /** The dispatch job's attempts so far and its limit; null when no job exists. */
  attempts: number | null;
  max_attempts: number | null;
  locked: boolean | null;
  /** Locked for longer than the given minutes. */
  stuck: boolean | null;
}

/**
 * PENDING orders never claimed by a dispatch (so never sent), older than `olderThanSeconds`, with no dispatch
 * job: placements whose job was to be added after their commit and never was (placeOrder). From the partial
 * index of unsent orders in id order (orders_unsent_idx), stopping at the batch, whatever the table's size.
 */
export async function ordersWithoutDispatchJob(db: DbOrTx, olderThanSeconds: number, limit: number): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT o.id FROM orders o
      WHERE o.status = 'PENDING' AND o.exchange_order_number IS NULL AND o.dispatch_claimed_at IS NULL
        AND o.created_at < now() - make_interval(secs => $1)
        AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = 'orders__dispatch:' || o.id)
      ORDER BY o.id
      LIMIT $2`,
    olderThanSeconds,
    limit,
  );
  return rows.map((r) => r.id);
}

/** PENDING orders without an exchange number, in id order, each with the state of its dispatch job. */
export async function undispatchedOrders(db: DbOrTx, afterId: string, stuckAfterMinutes: number, limit: number): Promise<UndispatchedOrder[]> {
  return db.$queryRawUnsafe<UndispatchedOrder[]>(
    `SELECT o.id, j.attempts, j.max_attempts, j.locked_at IS NOT NULL AS locked,
            j.locked_at < now() - make_interval(mins => $2) AS stuck
       FROM orders o
       LEFT JOIN graphile_worker.jobs j ON j.key = 'orders__dispatch:' || o.id
      WHERE o.status = 'PENDING' AND o.exchange_order_number IS NULL AND o.id > $1
      ORDER BY o.id
      LIMIT $3`,
    afterId,
    stuckAfterMinutes,
    limit,
  );
}

/**
 * ACCEPTED installment orders still carrying the number the schedule gave them (the registration's number,
 * a dash and the installment number), with their due date: the ones whose exchange order is not matched yet.
 */
export async function installmentsAwaitingExchangeNumber(db: DbOrTx, limit: number) {
  const rows = await db.$queryRawUnsafe<Array<{ id: string; parent_order_id: string; investor_id: string; order_type: string; installment_no: number; due_date: Date; exchange_order_number: string }>>(
    `SELECT c.id, c.parent_order_id, c.investor_id, c.order_type, c.installment_no, i.due_date, c.exchange_order_number
       FROM orders c
       JOIN orders p ON p.id = c.parent_order_id
       JOIN order_installments i ON i.child_order_id = c.id
      WHERE c.status = 'ACCEPTED' AND c.exchange_order_number = p.exchange_order_number || '-' || c.installment_no
      ORDER BY c.id
      LIMIT $1`,
    limit,
  );
  return rows.map((r) => ({
    id: r.id, parentOrderId: r.parent_order_id, investorId: r.investor_id, orderType: orderTypeOf(r.order_type), installmentNo: r.installment_no, dueDate: r.due_date.toISOString().slice(0, 10),
    scheduledNumber: r.exchange_order_number,
  }));
}
