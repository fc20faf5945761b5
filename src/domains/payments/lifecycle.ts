import type { Db, Tx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import { exchangeCalendar } from "../masters/exchange-calendar.js";
import { recordNavDateExpected } from "../orders/nav-date-expected.js";
import { orderForPayment, setOrderPaymentStatus } from "../orders/payment-status.js";
import { cancelAfterFailedInstallments } from "../orders/auto-cancel.js";
import * as repo from "./payments.repo.js";
import type { PaymentRow } from "./payments.repo.js";
import type { PaymentFailureCode } from "../../integrations/exchange/outcomes.js";

/**
 * The payment state table: which state each move starts from, what it makes of the order's
 * payment_status, and its event. A payment starts PENDING (payments.service.ts createPayment); this file
 * is the only caller of the repo's move.
 */
export const PAYMENT_MOVES = {
  CAPTURED: { from: "PENDING", orderPaymentStatus: "PAID", event: "payment.captured" },
  FAILED: { from: "PENDING", orderPaymentStatus: "FAILED", event: "payment.failed" },
  REFUNDED: { from: "CAPTURED", orderPaymentStatus: "REFUNDED", event: "payment.refunded" },
} as const;
export type PaymentMove = keyof typeof PAYMENT_MOVES;

/** A failure the gateway reports without a reason of ours. */
export const DEFAULT_FAILURE_CODE: PaymentFailureCode = "bank_declined";

/**
 * Orders that are over without an allotment whose money the exchange returns. Not CANCELLED: only an order
 * with no payment yet (never sent) or a registration (which holds no money) is ever cancelled, and a
 * cancellation records no refund the exchange has not made.
 */
const ORDER_ENDED_WITHOUT_UNITS = new Set(["REJECTED", "FAILED"]);

/**
 * Moves a payment along its state table with its event, keeping the order's payment_status in step,
 * in one transaction (a capture also fixes the order's NAV date). A FAILED payment keeps its closed failure code (default `bank_declined`). Money
 * captured for an order that has meanwhile ended without units (rejected, failed) is
 * refunded at once. Returns false when the payment was not in the move's starting state (nothing changes).
 */
export async function movePayment(
  db: Db,
  paymentId: string,
  to: PaymentMove,
  remark: string | null,
  failureCode: PaymentFailureCode = DEFAULT_FAILURE_CODE,
): Promise<boolean> {
  const calendar = to === "CAPTURED" ? await exchangeCalendar(db) : null;
  return db.$transaction(async (tx) => {
    const moved = await movePaymentIn(tx, paymentId, to, remark, failureCode);
    if (!moved) return false;
    if (to === "CAPTURED") {
      const order = await orderForPayment(tx, moved.orderId);
      if (ORDER_ENDED_WITHOUT_UNITS.has(order.status)) await movePaymentIn(tx, paymentId, "REFUNDED", `REFUNDED: ORDER ${order.status}`);
      // The funds are available to the scheme from the capture: that fixes a purchase's NAV date.
      else await recordNavDateExpected(tx, calendar!, order, "payment_captured", moved.capturedAt ?? new Date());
    }
    return true;
  });
}

/**
 * One move in the caller's transaction: the payment (remark masked), the order's payment_status and the
 * event. Answers the moved payment, or null when it was not in the move's starting state.
 */
export async function movePaymentIn(
  tx: Tx,
  paymentId: string,
  to: PaymentMove,
  remark: string | null,
  failureCode: PaymentFailureCode = DEFAULT_FAILURE_CODE,
): Promise<PaymentRow | null> {
  const move = PAYMENT_MOVES[to];
  const now = new Date();
  const moved = await repo.movePaymentRow(tx, paymentId, move.from, {
    status: to,
    providerRemark: maskFreeText(remark),
    ...(to === "FAILED" ? { failureCode } : {}),
    ...(to === "CAPTURED" ? { capturedAt: now } : {}),
    ...(to === "REFUNDED" ? { refundedAt: now } : {}),
  });
  if (!moved) return null;
  const payment = await repo.getPaymentById(tx, paymentId);
  await setOrderPaymentStatus(tx, payment.orderId, move.orderPaymentStatus);
  await recordEvent(tx, {
    distributorId: payment.distributorId,
    resourceType: "payment",
    resourceId: paymentId,
    event: move.event,
    data: { payment_id: paymentId, status: to },
  });
  if (to === "FAILED") await cancelAfterFailedInstallments(tx, payment.orderId);
  return payment;
}
