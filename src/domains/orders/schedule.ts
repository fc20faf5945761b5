import type { Db, Tx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { newId } from "../../platform/lib/ids.js";
import { exchangeCalendar } from "../masters/exchange-calendar.js";
import type { Log } from "../../platform/lib/logger.js";
import { createPayment } from "../payments/payments.service.js";
import { recordNavDateExpected } from "./nav-date-expected.js";
import { orderDetails } from "./order-details.js";
import { orderType } from "./order-types.js";
import { cancelScheduledInstallments, claimInstallment, dueInstallments, insertInstallments, lockRegistration, nextScheduledInstallment, type InstallmentRow } from "./installments.repo.js";
import { insertOrder, type OrderRow } from "./orders.repo.js";

type Frequency = "MONTHLY" | "QUARTERLY" | "WEEKLY";

export interface Plan {
  frequency: Frequency;
  startDate: string;
  installments: number;
  /** Day of the month for monthly and quarterly plans (SIP, XSIP); STP and SWP use the start date's day. */
  installmentDay?: number;
}

/**
 * The due dates of a plan's installments (YYYY-MM-DD). Monthly and quarterly plans fall on the
 * installment day (the first such day on or after the start date), clamped to the month's last day;
 * weekly plans every seven days from the start date.
 */
export function installmentDates(plan: Plan): string[] {
  const [y, m, d] = plan.startDate.split("-").map(Number) as [number, number, number];
  if (plan.frequency === "WEEKLY") {
    return Array.from({ length: plan.installments }, (_, i) => iso(new Date(Date.UTC(y, m - 1, d + 7 * i))));
  }
  const step = plan.frequency === "MONTHLY" ? 1 : 3;
  const day = plan.installmentDay ?? d;
  const firstMonth = clampedDay(y, m - 1, day) >= d ? m - 1 : m;
  return Array.from({ length: plan.installments }, (_, i) => {
    const month = firstMonth + step * i;
    return iso(new Date(Date.UTC(y, month, clampedDay(y, month, day))));
  });
}

function clampedDay(year: number, month: number, day: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Math.min(day, lastDay);
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

function planOf(order: OrderRow, log?: Pick<Log, "warn">): Plan | null {
  const details = orderDetails(order, log);
  if (details.sip) {
    const { frequency, start_date, installments, installment_day } = details.sip;
    // A top-up's sip object names its SIP and has no plan.
    if (!frequency || !start_date || !installments) return null;
    return { frequency, startDate: start_date, installments, installmentDay: installment_day };
  }
  const plan = details.stp ?? details.swp;
  return plan ? { frequency: plan.frequency, startDate: plan.start_date, installments: plan.installments } : null;
}

/** Writes a registration's schedule when the exchange accepts it (SCHEDULED rows, one per installment). */
export async function scheduleInstallments(tx: Tx, order: OrderRow): Promise<void> {
  const plan = planOf(order);
  if (!plan) return;
  await insertInstallments(
    tx,
    installmentDates(plan).map((dueDate, i) => ({
      orderId: order.id,
      installmentNo: i + 1,
      dueDate: new Date(`${dueDate}T00:00:00Z`),
      amount: order.amount,
      units: order.units,
    })),
  );
}

/** A registration that ends (cancelled, rejected) stops: its future installments are cancelled. */
export async function cancelSchedule(tx: Tx, orderId: string): Promise<void> {
  await cancelScheduledInstallments(tx, orderId);
}

const INSTALLMENT_BATCH = 200;
/** Registrations whose installments keep coming: registered, or registered and (first) allotted. */
const LIVE_REGISTRATION = new Set(["ACCEPTED", "ALLOTTED"]);

/**
 * Turns every installment due on or before `today` into its child order, as the exchange does on the
 * due date: ACCEPTED, numbered after the registration, with `order.accepted`. XSIP installments are
 * debited by the registration's mandate; SIP installments await payment (UNPAID); STP and SWP move
 * units and need none. Each installment becomes a child once (its row moves SCHEDULED -> CREATED in
 * the child's transaction). Returns the number of child orders created.
 */
export async function createDueInstallments(db: Db, today: string, log?: Pick<Log, "warn">): Promise<number> {
  let created = 0;
  for (;;) {
    const due = await dueInstallments(db, new Date(`${today}T00:00:00Z`), INSTALLMENT_BATCH);
    if (due.length === 0) return created;
    for (const row of due) {
      const child = await createChild(db, row, log);
      if (child && child !== "held") created++;
    }
  }
}

/**
 * The sandbox's next-installment: the registration's next SCHEDULED installment becomes its child order
 * now, through the same code as on its due date. Null when none is left (or the registration has ended, or
 * its cancellation is asked or confirmed).
 */
export async function createNextInstallment(db: Db, orderId: string, log?: Pick<Log, "warn">): Promise<{ childId: string; installmentNo: number; installments: number | undefined } | null> {
  for (;;) {
    const next = await nextScheduledInstallment(db, orderId);
    if (!next) return null;
    const created = await createChild(db, next, log);
    if (created === "held") return null;
    // Null: a concurrent call (or the hourly job) took this one first, or the registration ended; look again.
    if (created) return { ...created, installmentNo: next.installmentNo };
  }
}

/** A registration whose cancellation is asked (or confirmed) gets no installment until the exchange refuses it. */
const HELD_BY_CANCELLATION = new Set(["PENDING", "CONFIRMED"]);

async function createChild(db: Db, row: InstallmentRow, log?: Pick<Log, "warn">): Promise<{ childId: string; installments: number | undefined } | "held" | null> {
  const calendar = await exchangeCalendar(db);
  return db.$transaction(async (tx) => {
    const parent = await lockRegistration(tx, row.orderId);
    if (!LIVE_REGISTRATION.has(parent.status)) {
      await cancelScheduledInstallments(tx, row.orderId, row.installmentNo);
      return null;
    }
    if (parent.cancellationStatus && HELD_BY_CANCELLATION.has(parent.cancellationStatus)) return "held";
    const childId = newId("ord");
    if (!(await claimInstallment(tx, row.orderId, row.installmentNo, childId))) return null;
    const terms = orderType(parent.orderType).installments;
    if (!terms) throw new Error(`Order ${parent.id} is a ${parent.orderType}, which has no installments`);
    const total = planOf(parent, log)?.installments;
    const inserted = await insertOrder(tx, {
      id: childId,
      distributorId: parent.distributorId,
      investorId: parent.investorId,
      investmentAccountId: parent.investmentAccountId,
      orderType: parent.orderType,
      status: "ACCEPTED",
      paymentStatus: terms.payment,
      purchaseType: parent.purchaseType,
      holdingMode: parent.holdingMode,
      schemeCode: parent.schemeCode,
      exchangeSchemeCode: parent.exchangeSchemeCode,
      toExchangeSchemeCode: parent.toExchangeSchemeCode,
      folioNo: parent.folioNo,
      amount: row.amount,
      units: row.units,
      mandateId: parent.mandateId,
      details: parent.details,
      exchangeOrderNumber: parent.exchangeOrderNumber ? `${parent.exchangeOrderNumber}-${row.installmentNo}` : null,
      providerRemark: `INSTALLMENT ${row.installmentNo} OF ${total}`,
      parentOrderId: parent.id,
      installmentNo: row.installmentNo,
      requestHash: parent.requestHash,
    });
    // A child has no client_ref, so nothing can take its place.
    if (!inserted) throw new Error(`Installment order ${childId} was not inserted`);
    const child = inserted.order;
    await recordEvent(tx, {
      distributorId: child.distributorId,
      resourceType: "order",
      resourceId: child.id,
      event: "order.accepted",
      data: { order_id: child.id, status: "ACCEPTED", provider_remark: child.providerRemark },
    });
    // An STP or SWP installment is accepted as it is created: its NAV date is known now (a SIP's at payment).
    await recordNavDateExpected(tx, calendar, { ...child, exchangeSchemeCode: child.exchangeSchemeCode ?? parent.exchangeSchemeCode }, "accepted", new Date());
    if (terms.mandateDebit && child.mandateId) await createPayment(tx, { order: child, mode: "MANDATE", mandateId: child.mandateId });
    return { childId, installments: total };
  });
}
