import type { Db, Tx } from "../../platform/db/client.js";
import { recordEvent, recordEvents, type EventInput } from "../events/events.repo.js";
import type { OrderPlacement } from "../../integrations/exchange/port.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import { createPayment, refundCapturedPayments } from "../payments/payments.service.js";
import type { Decimal } from "../../platform/lib/money.js";
import { exchangeCalendar } from "../masters/exchange-calendar.js";
import { recordNavDateExpected } from "./nav-date-expected.js";
import { isRegistration } from "./order-types.js";
import { askCancellationAtExchange, REGISTRATION_TYPES } from "./cancellation-request.js";
import { cancelAfterFailedInstallments } from "./auto-cancel.js";
import * as repo from "./orders.repo.js";
import type { OrderRow } from "./orders.repo.js";
import type { OrderFailureCode } from "../../integrations/exchange/outcomes.js";
import { cancelSchedule, scheduleInstallments } from "./schedule.js";

/**
 * Every move of an order's state table after placement, each in one transaction with its event and
 * the work it causes (payments, installment schedule, refunds, the cancellation job): the only caller of
 * orders.repo.ts's status moves. A move is conditional on the state it starts from, so a move applied twice
 * (a retried job, a simulation racing a status sync) happens once. The exchange's remarks are free text:
 * they are stored (and put in events) with PANs masked.
 */


/**
 * Applies the exchange's answer to a dispatched order, once: ACCEPTED or REJECTED with its event, or
 * (a held order) the exchange's number and remark while it stays PENDING.
 */
export async function applyPlacement(db: Db, orderId: string, placement: OrderPlacement): Promise<boolean> {
  const [moved] = await applyPlacements(db, [{ orderId, placement }]);
  return moved!;
}

/**
 * applyPlacement for several orders at once (dispatch jobs running together): the held ones are noted one by
 * one; the others move in one transaction (see moveFromPendingMany). Answers, in order, whether each moved.
 */
export async function applyPlacements(db: Db, answers: ReadonlyArray<{ orderId: string; placement: OrderPlacement }>): Promise<boolean[]> {
  const moves: repo.MoveFromPending[] = [];
  for (const { orderId, placement } of answers) {
    if (placement.status === "PENDING") {
      await repo.noteHeldPlacement(db, orderId, { exchangeOrderNumber: placement.exchangeOrderNumber, providerRemark: maskFreeText(placement.remark) });
      continue;
    }
    moves.push({
      id: orderId,
      status: placement.status,
      exchangeOrderNumber: placement.exchangeOrderNumber,
      providerRemark: placement.remark,
      failureCode: placement.status === "REJECTED" ? (placement.failureCode ?? "exchange_rejected") : null,
    });
  }
  const moved = await moveFromPendingMany(db, moves);
  // One order answered twice in a batch (two of its jobs at once) moves once: the first answer tells so.
  const told = new Set<string>();
  return answers.map(({ orderId, placement }) => {
    if (placement.status === "PENDING" || !moved.has(orderId) || told.has(orderId)) return false;
    told.add(orderId);
    return true;
  });
}

/** Transport failures exhausted the dispatch attempts: FAILED, safe to investigate and place again. */
export async function markDispatchFailed(db: Db, orderId: string, remark: string): Promise<boolean> {
  const moved = await moveFromPendingMany(db, [{ id: orderId, status: "FAILED", exchangeOrderNumber: null, providerRemark: remark, failureCode: "exchange_unreachable" }]);
  return moved.has(orderId);
}

/**
 * Moves out of PENDING, each with its event and what acceptance sets going (a redemption's or switch's NAV
 * date), all in one transaction: one UPDATE for every order, one read of the moved orders, one INSERT of their
 * events (the webhook fan-out reads the subscriptions once per distributor and queues one delivery job per
 * transaction). An order no longer PENDING is left alone, and an order named twice moves once (its first
 * move). Answers the ids that moved.
 */
async function moveFromPendingMany(db: Db, moves: repo.MoveFromPending[]): Promise<Set<string>> {
  if (moves.length === 0) return new Set();
  const firstOfEach = new Map<string, repo.MoveFromPending>();
  for (const m of moves) if (!firstOfEach.has(m.id)) firstOfEach.set(m.id, { ...m, providerRemark: maskFreeText(m.providerRemark) });
  const masked = [...firstOfEach.values()];
  const calendar = await exchangeCalendar(db);
  return db.$transaction(async (tx) => {
    const movedIds = await repo.moveManyFromPending(tx, masked);
    if (movedIds.length === 0) return new Set<string>();
    const moved = new Set(movedIds);
    const orders = new Map((await repo.findOrdersByIds(tx, movedIds)).map((o) => [o.id, o]));
    const done = masked.filter((m) => moved.has(m.id));
    await recordEvents(
      tx,
      done.map((m): EventInput => {
        const base = { distributorId: orders.get(m.id)!.distributorId, resourceType: "order" as const, resourceId: m.id };
        const data = { order_id: m.id, provider_remark: m.providerRemark };
        return m.status === "ACCEPTED"
          ? { ...base, event: "order.accepted", data: { ...data, status: "ACCEPTED" } }
          : m.status === "REJECTED"
            ? { ...base, event: "order.rejected", data: { ...data, status: "REJECTED" } }
            : { ...base, event: "order.failed", data: { ...data, status: "FAILED" } };
      }),
    );
    const acceptedAt = new Date();
    for (const m of done) {
      if (m.status !== "ACCEPTED") continue;
      await recordNavDateExpected(tx, calendar, orders.get(m.id)!, "accepted", acceptedAt);
      await afterAcceptance(tx, orders.get(m.id)!);
    }
    return moved;
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
 * REJECTED with `order.rejected`; money captured for it is refunded (the exchange returns the funds of an
 * order it rejects) and a registration's remaining installments are cancelled, in the same transaction.
 */
export async function rejectAccepted(db: Db, orderId: string, exchangeRemark: string, failureCode: OrderFailureCode): Promise<boolean> {
  const remark = maskFreeText(exchangeRemark);
  return db.$transaction(async (tx) => {
    if (!(await repo.moveOrder(tx, orderId, ["ACCEPTED"], { status: "REJECTED", providerRemark: remark, failureCode }))) return false;
    const { distributorId } = await repo.getOrderById(tx, orderId);
    await recordOrderMove(tx, distributorId, orderId, "REJECTED", remark);
    await endWithoutUnits(tx, orderId, `REFUNDED: ORDER REJECTED`);
    await cancelAfterFailedInstallments(tx, orderId);
    return true;
  });
}

/**
 * A PENDING order the exchange has nothing of (no number, no dispatch claim) is cancelled by us alone:
 * CANCELLED with `order.cancelled`, in the caller's transaction. False when it is no longer such an order.
 * No payment can exist yet (payments start on acceptance), so there is nothing to refund.
 */
export async function cancelUnsentOrder(tx: Tx, order: Pick<OrderRow, "id" | "distributorId">): Promise<boolean> {
  if (!(await repo.cancelUnsent(tx, order.id))) return false;
  await recordCancelled(tx, order.distributorId, order.id);
  return true;
}

/**
 * An ACCEPTED registration's cancellation asked of the exchange (never asked, or refused before): cancellation
 * PENDING with the job `orders__cancel_at_exchange`, in the caller's transaction. The order stays ACCEPTED, so
 * there is no event yet. False when it is not such a registration any more, or its cancellation is already asked.
 */
export async function requestCancellation(tx: Tx, orderId: string): Promise<boolean> {
  return askCancellationAtExchange(tx, orderId, "requested");
}

/**
 * The exchange confirmed a registration's cancellation: ACCEPTED -> CANCELLED (cancellation CONFIRMED) with
 * `order.cancelled`, its remaining installments cancelled. No refund: a registration holds no money itself,
 * and its installments' payments are their own orders'.
 */
export async function confirmCancellation(db: Db, orderId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if (!(await repo.confirmCancellation(tx, orderId))) return false;
    const { distributorId, cancellationReason } = await repo.getOrderById(tx, orderId);
    // The distributor's own cancel keeps a null remark; SEBI's automatic one says why.
    await recordCancelled(tx, distributorId, orderId, cancellationReason === "requested" ? null : cancellationReason);
    await cancelSchedule(tx, orderId);
    return true;
  });
}

/** The exchange refused a registration's cancellation: REFUSED with its remark (masked); the order stays ACCEPTED. */
export async function refuseCancellation(db: Db, orderId: string, exchangeRemark: string): Promise<boolean> {
  return repo.refuseCancellation(db, orderId, maskFreeText(exchangeRemark));
}

function recordCancelled(tx: Tx, distributorId: string, orderId: string, remark: string | null = null): Promise<void> {
  return recordOrderMove(tx, distributorId, orderId, "CANCELLED", remark);
}

/** `order.rejected` / `order.cancelled`: the two moves whose event is `{order_id, status, provider_remark}`. */
async function recordOrderMove(tx: Tx, distributorId: string, orderId: string, status: "REJECTED" | "CANCELLED", remark: string | null): Promise<void> {
  await recordEvent(tx, {
    distributorId,
    resourceType: "order",
    resourceId: orderId,
    event: status === "REJECTED" ? "order.rejected" : "order.cancelled",
    data: { order_id: orderId, status, provider_remark: remark },
  });
}

/**
 * An order the exchange rejected after accepting it: its captured money goes back (the exchange refunds
 * the payment of an order it rejects), its schedule stops. A cancellation never comes here: nothing is
 * recorded as refunded for it.
 */
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
  return db.$transaction((tx) => allotOrderIn(tx, orderId, allotment));
}

/** allotOrder inside the caller's transaction (the reconciliation applies a missed allotment with its own records). */
export async function allotOrderIn(tx: Tx, orderId: string, allotment: Allotment): Promise<boolean> {
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
}
