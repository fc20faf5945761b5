import type { Db, Tx } from "../db/client.js";
import { recordEvent } from "../events/events.repo.js";
import type { OrderPlacement } from "../exchange/port.js";
import { maskFreeText } from "../lib/mask.js";
import { createPayment, refundCapturedPayments } from "../payments/payments.service.js";
import type { Decimal } from "../lib/money.js";
import { isRegistration, orderTypesWhere } from "./order-types.js";
import * as repo from "./orders.repo.js";
import type { OrderRow } from "./orders.repo.js";
import type { OrderFailureCode } from "./order.states.js";
import { cancelSchedule, scheduleInstallments } from "./schedule.js";

/**
 * Every move of an order's state table after placement, each in one transaction with its event and
 * the work it causes (payments, installment schedule, refunds). A move is conditional on the state it
 * starts from, so a move applied twice (a retried job, a simulation racing a status sync) happens once.
 * The exchange's remarks are free text: they are stored (and put in events) with PANs masked.
 */

/** The types whose registrations have installments and are never allotted themselves. */
const REGISTRATION_TYPES = orderTypesWhere((type) => type.installments !== null);

/**
 * Applies the exchange's answer to a dispatched order, once: ACCEPTED or REJECTED with its event, or
 * (a held order) the exchange's number and remark while it stays PENDING.
 */
export async function applyPlacement(db: Db, orderId: string, placement: OrderPlacement): Promise<boolean> {
  if (placement.status === "PENDING") {
    await repo.noteHeldPlacement(db, orderId, { exchangeOrderNumber: placement.exchangeOrderNumber, providerRemark: maskFreeText(placement.remark) });
    return false;
  }
  return moveFromPending(db, orderId, {
    status: placement.status,
    exchangeOrderNumber: placement.exchangeOrderNumber,
    providerRemark: placement.remark,
    failureCode: placement.status === "REJECTED" ? (placement.failureCode ?? "exchange_rejected") : null,
  });
}

/** Transport failures exhausted the dispatch attempts: FAILED, safe to investigate and place again. */
export function markDispatchFailed(db: Db, orderId: string, remark: string): Promise<boolean> {
  return moveFromPending(db, orderId, { status: "FAILED", exchangeOrderNumber: null, providerRemark: remark, failureCode: "exchange_unreachable" });
}

async function moveFromPending(
  db: Db,
  orderId: string,
  to: { status: "ACCEPTED" | "REJECTED" | "FAILED"; exchangeOrderNumber: string | null; providerRemark: string | null; failureCode: OrderFailureCode | null },
): Promise<boolean> {
  const providerRemark = maskFreeText(to.providerRemark);
  return db.$transaction(async (tx) => {
    if (!(await repo.moveOrder(tx, orderId, ["PENDING"], { ...to, providerRemark }))) return false;
    const order = await repo.getOrderById(tx, orderId);
    const data = { order_id: orderId, provider_remark: providerRemark };
    const event =
      to.status === "ACCEPTED"
        ? ({ event: "order.accepted", data: { ...data, status: "ACCEPTED" } } as const)
        : to.status === "REJECTED"
          ? ({ event: "order.rejected", data: { ...data, status: "REJECTED" } } as const)
          : ({ event: "order.failed", data: { ...data, status: "FAILED" } } as const);
    await recordEvent(tx, { distributorId: order.distributorId, resourceType: "order", resourceId: orderId, ...event });
    if (to.status === "ACCEPTED") await afterAcceptance(tx, order);
    return true;
  });
}

/**
 * What acceptance sets going: a registration's installment schedule, and the mandate debit of an
 * order that names a mandate and has money to collect (lump sums, top-ups, XSIP installments).
 */
export async function afterAcceptance(tx: Tx, order: OrderRow): Promise<void> {
  if (isRegistration(order)) await scheduleInstallments(tx, order);
  if (order.mandateId && order.paymentStatus === "UNPAID") {
    await createPayment(tx, { order, mode: "MANDATE", mandateId: order.mandateId });
  }
}

/**
 * The exchange rejects an order it had accepted (status sync, or an allotment row marked invalid):
 * REJECTED with `order.rejected`; money captured for it is refunded and a registration's remaining
 * installments are cancelled, in the same transaction.
 */
export async function rejectAccepted(db: Db, orderId: string, exchangeRemark: string, failureCode: OrderFailureCode): Promise<boolean> {
  const remark = maskFreeText(exchangeRemark);
  return db.$transaction(async (tx) => {
    if (!(await repo.moveOrder(tx, orderId, ["ACCEPTED"], { status: "REJECTED", providerRemark: remark, failureCode }))) return false;
    const { distributorId } = await repo.getOrderById(tx, orderId);
    await recordEvent(tx, {
      distributorId,
      resourceType: "order",
      resourceId: orderId,
      event: "order.rejected",
      data: { order_id: orderId, status: "REJECTED", provider_remark: remark },
    });
    await endWithoutUnits(tx, orderId, `REFUNDED: ORDER REJECTED`);
    return true;
  });
}

/** An order that ended without units: its captured money goes back, its schedule stops. */
export async function endWithoutUnits(tx: Tx, orderId: string, refundRemark: string): Promise<void> {
  await refundCapturedPayments(tx, orderId, refundRemark);
  await cancelSchedule(tx, orderId);
}

export interface Allotment {
  nav: Decimal;
  units: Decimal;
  amount: Decimal;
  folioNo: string;
  allotmentDate: string;
}

/**
 * ACCEPTED -> ALLOTTED with `order.allotted`: the simulation and the allotment statement both come here.
 * A SIP-type registration is never allotted (its installments are), whatever reports it.
 */
export async function allotOrder(db: Db, orderId: string, allotment: Allotment): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const allotted = await repo.allotAccepted(tx, orderId, REGISTRATION_TYPES, {
      nav: allotment.nav.toFixed(4),
      allottedUnits: allotment.units.toFixed(3),
      allottedAmount: allotment.amount.toFixed(2),
      folioNo: allotment.folioNo,
      allotmentDate: new Date(`${allotment.allotmentDate}T00:00:00Z`),
    });
    if (!allotted) return false;
    const { distributorId } = await repo.getOrderById(tx, orderId);
    await recordEvent(tx, { distributorId, resourceType: "order", resourceId: orderId, event: "order.allotted", data: { order_id: orderId, status: "ALLOTTED" } });
    return true;
  });
}
