import type { Db, Tx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState, notFound } from "../../platform/lib/errors.js";
import { decimalOrNull } from "../../platform/lib/formats.js";
import { newId } from "../../platform/lib/ids.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { exchangeCalendar } from "../masters/exchange-calendar.js";
import { recordNavDateExpected } from "../orders/nav-date-expected.js";
import { getOrderById, movePaymentStatusOfAccepted, setPaymentStatus, type OrderRow } from "../orders/orders.repo.js";
import * as repo from "./payments.repo.js";
import type { PaymentRow } from "./payments.repo.js";
import type { PaymentMode } from "./payment.states.js";
import type { PaymentFailureCode } from "../../integrations/exchange/outcomes.js";

/** The payment state table: which state each move starts from, and what it makes of the order. */
const MOVES = {
  CAPTURED: { from: "PENDING", orderPaymentStatus: "PAID", event: "payment.captured" },
  FAILED: { from: "PENDING", orderPaymentStatus: "FAILED", event: "payment.failed" },
  REFUNDED: { from: "CAPTURED", orderPaymentStatus: "REFUNDED", event: "payment.refunded" },
} as const;
export type PaymentMove = keyof typeof MOVES;

/** A failure the gateway reports without a reason of ours. */
export const DEFAULT_FAILURE_CODE: PaymentFailureCode = "bank_declined";

/**
 * Orders that are over without an allotment whose money the exchange returns. Not CANCELLED: only an order
 * with no payment yet (never sent) or a registration (which holds no money) is ever cancelled, and a
 * cancellation records no refund the exchange has not made.
 */
const ORDER_ENDED_WITHOUT_UNITS = new Set(["REJECTED", "FAILED"]);

export interface NewPayment {
  order: OrderRow;
  mode: PaymentMode;
  mandateId?: string | null;
  bankAccountId?: string | null;
  basketId?: string | null;
  /** Mode-specific details, already masked where personal (VPA, cheque). */
  details?: Record<string, unknown>;
}

/**
 * Starts a payment for an ACCEPTED order whose payment is due (UNPAID, or FAILED before), inside the
 * caller's transaction: the PENDING payment, the order's payment_status PENDING and the job that
 * presents it to the exchange's payment gateway commit together. The public-link pay flow and the
 * mandate debits of lump sums and XSIP installments both come through here.
 */
export async function createPayment(tx: Tx, input: NewPayment): Promise<PaymentRow> {
  const { order } = input;
  if (order.status !== "ACCEPTED") throw invalidState(`Order ${order.id} is ${order.status}; a payment needs an ACCEPTED order`);
  if (!order.amount) throw invalidState(`Order ${order.id} has no amount to pay`);
  if (!(await movePaymentStatusOfAccepted(tx, order.id, ["UNPAID", "FAILED"], "PENDING"))) throw invalidState(`Order ${order.id} is not awaiting a payment (payment_status ${order.paymentStatus})`);
  const payment = await repo.insertPayment(tx, {
    id: newId("pay"),
    distributorId: order.distributorId,
    investorId: order.investorId,
    orderId: order.id,
    basketId: input.basketId ?? null,
    mode: input.mode,
    amount: order.amount,
    mandateId: input.mandateId ?? null,
    bankAccountId: input.bankAccountId ?? null,
    details: JSON.parse(JSON.stringify(input.details ?? {})),
  });
  await enqueue(tx, "payments__initiate", { payment_id: payment.id }, { jobKey: `payments__initiate:${payment.id}` });
  return payment;
}

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
    const moved = await applyMove(tx, paymentId, to, remark, failureCode);
    if (!moved) return false;
    if (to === "CAPTURED") {
      const order = await getOrderById(tx, moved.orderId);
      if (ORDER_ENDED_WITHOUT_UNITS.has(order.status)) await applyMove(tx, paymentId, "REFUNDED", `REFUNDED: ORDER ${order.status}`);
      // The funds are available to the scheme from the capture: that fixes a purchase's NAV date.
      else await recordNavDateExpected(tx, calendar!, order, "payment_captured", moved.capturedAt ?? new Date());
    }
    return true;
  });
}

/** Refunds every captured payment of an order that ended without units; in the caller's transaction. */
export async function refundCapturedPayments(tx: Tx, orderId: string, remark: string): Promise<number> {
  const captured = await repo.capturedPaymentIds(tx, orderId);
  for (const id of captured) await applyMove(tx, id, "REFUNDED", remark);
  return captured.length;
}

async function applyMove(
  tx: Tx,
  paymentId: string,
  to: PaymentMove,
  remark: string | null,
  failureCode: PaymentFailureCode = DEFAULT_FAILURE_CODE,
): Promise<PaymentRow | null> {
  const move = MOVES[to];
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
  await setPaymentStatus(tx, payment.orderId, move.orderPaymentStatus);
  await recordEvent(tx, {
    distributorId: payment.distributorId,
    resourceType: "payment",
    resourceId: paymentId,
    event: move.event,
    data: { payment_id: paymentId, status: to },
  });
  return payment;
}

export async function getPayment(services: Services, caller: Caller, id: string): Promise<PaymentView> {
  const row = await repo.findPayment(services.prisma, caller.distributorId, id);
  if (!row) throw notFound(`Payment ${id}`);
  return toPaymentView(row);
}

export type PaymentView = ReturnType<typeof toPaymentView>;

export function toPaymentView(row: PaymentRow) {
  const details = row.details as { vpa?: string; cheque?: { number?: string; date?: string; bank_name?: string } };
  return {
    id: row.id,
    order_id: row.orderId,
    basket_id: row.basketId,
    mode: row.mode,
    amount: decimalOrNull(row.amount) as number,
    status: row.status,
    mandate_id: row.mandateId,
    bank_account_id: row.bankAccountId,
    vpa: details.vpa ?? null,
    gateway_reference: row.gatewayReference,
    provider_remark: row.providerRemark,
    failure_code: row.failureCode,
    captured_at: row.capturedAt?.toISOString() ?? null,
    refunded_at: row.refundedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
