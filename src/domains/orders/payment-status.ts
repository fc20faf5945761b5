import type { DbOrTx } from "../../platform/db/client.js";
import type { OrderPaymentStatus } from "./order.states.js";
import * as repo from "./orders.repo.js";

/**
 * What the payments domain may do to an order, whose row orders own: read it, and keep its payment_status in
 * step with its payment. It imports nothing of payments, so payments call it without a loop of files.
 */
export type PayableOrder = repo.OrderRow;

export function orderForPayment(db: DbOrTx, orderId: string): Promise<PayableOrder> {
  return repo.getOrderById(db, orderId);
}

/** An ACCEPTED order awaiting its money (UNPAID, or its last payment FAILED) starts a payment: PENDING. False when it is not. */
export function startOrderPayment(tx: DbOrTx, orderId: string): Promise<boolean> {
  return repo.movePaymentStatusOfAccepted(tx, orderId, ["UNPAID", "FAILED"], "PENDING");
}

export function setOrderPaymentStatus(tx: DbOrTx, orderId: string, paymentStatus: OrderPaymentStatus): Promise<void> {
  return repo.setPaymentStatus(tx, orderId, paymentStatus);
}
