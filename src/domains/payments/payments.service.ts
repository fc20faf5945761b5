import type { DbOrTx, Tx } from "../../platform/db/client.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState, notFound } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { startOrderPayment, type PayableOrder } from "../orders/payment-status.js";
import { movePaymentIn } from "./lifecycle.js";
import { paymentDetails } from "./payment-details.js";
import * as repo from "./payments.repo.js";
import type { PaymentRow } from "./payments.repo.js";
import type { PaymentMode } from "./payment.states.js";
import type { ListPaymentsInput, StoredPaymentDetails } from "./payments.schemas.js";
import { toPaymentView, type PaymentView } from "./views.js";

export interface NewPayment {
  order: PayableOrder;
  mode: PaymentMode;
  mandateId?: string | null;
  bankAccountId?: string | null;
  basketId?: string | null;
  /** Mode-specific details, already masked where personal (VPA, cheque). */
  details?: StoredPaymentDetails;
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
  if (!(await startOrderPayment(tx, order.id))) throw invalidState(`Order ${order.id} is not awaiting a payment (payment_status ${order.paymentStatus})`);
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

/** Refunds every captured payment of an order that ended without units; in the caller's transaction. */
export async function refundCapturedPayments(tx: Tx, orderId: string, remark: string): Promise<number> {
  const captured = await repo.capturedPaymentIds(tx, orderId);
  for (const id of captured) await movePaymentIn(tx, id, "REFUNDED", remark);
  return captured.length;
}

/**
 * What the gateway answered for the investor to see (merged into `details`), with its reference: once,
 * while the payment has no reference yet.
 */
export async function recordGatewayAnswer(db: DbOrTx, id: string, gatewayReference: string, answer: StoredPaymentDetails): Promise<void> {
  const payment = await repo.findPaymentById(db, id);
  if (!payment) return;
  await repo.setGatewayAnswer(db, id, gatewayReference, { ...paymentDetails(payment), ...answer });
}

export async function getPayment(services: Services, caller: Caller, id: string): Promise<PaymentView> {
  const row = await repo.findPayment(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Payment");
  return toPaymentView(row);
}

/** The distributor's payments, newest first, each as GET /api/payments/v1/{id} shows it; another distributor's order_id finds none. */
export async function listPayments(services: Services, caller: Caller, query: ListPaymentsInput): Promise<{ data: PaymentView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await repo.listPayments(services.prisma, { distributorId: caller.distributorId, status: query.status, orderId: query.order_id, afterId, limit: query.limit });
  return toPage(rows, query.limit, (row) => [row.id], toPaymentView);
}

/** The latest payment of an order (null when it has none). */
export async function latestPaymentOf(db: DbOrTx, orderId: string): Promise<PaymentRow | null> {
  return repo.latestPaymentOf(db, orderId);
}

/** The id of the latest payment of each order that has one. */
export async function latestPaymentIds(db: DbOrTx, orderIds: string[]): Promise<Map<string, string>> {
  return repo.latestPaymentIds(db, orderIds);
}

/** The order a payment pays. */
export async function orderIdOfPayment(db: DbOrTx, paymentId: string): Promise<string> {
  return (await repo.getPaymentById(db, paymentId)).orderId;
}
