/**
 * Orders of all eight types with their SIP-type installments (order_installments) and child orders, and the
 * payments of those that take money, written
 * through COPY in the order bench/scale/order-shapes.ts numbers them.
 */
import type pg from "pg";
import { copyLines, row, type Progress } from "./copy.js";
import { day, idAt, stamp } from "./ids.js";
import { INSTALLMENTS, childStatus, dueOf, registrationAt, standaloneAt, type OrderPlan, type Registration } from "./order-shapes.js";
import { DAY_MS, accountId, investorId, type Scale } from "./shapes.js";

const COLUMNS = ["id", "distributor_id", "investor_id", "investment_account_id", "order_type", "status", "payment_status", "purchase_type", "scheme_code",
  "folio_no", "amount", "units", "details", "exchange_order_number", "failure_code", "provider_remark", "nav", "allotted_units", "allotted_amount",
  "allotment_date", "parent_order_id", "installment_no", "exchange_scheme_code", "cancellation_status", "cancellation_reason", "request_hash", "created_at", "updated_at"];

const NAV = 21.3456;
const PAID_BY_STATUS: Record<string, string> = { ALLOTTED: "PAID", ACCEPTED: "PAID", PENDING: "PENDING", REJECTED: "REFUNDED", FAILED: "FAILED", CANCELLED: "UNPAID" };
const FAILURE: Record<string, string | null> = { REJECTED: "exchange_rejected", FAILED: "allotment_rejected" };

interface OrderFields {
  id: string;
  distributorId: string;
  investor: number;
  type: string;
  status: string;
  n: number;
  at: number;
  amount: string | null;
  units: string | null;
  details: string;
  parentId?: string;
  installmentNo?: number;
  cancelled?: boolean;
}

function paymentStatusOf(o: OrderFields): string {
  const pays = o.type === "LUMPSUM_PURCHASE" || o.type === "SIP_TOPUP" || ((o.type === "SIP" || o.type === "XSIP") && o.parentId !== undefined);
  return pays ? PAID_BY_STATUS[o.status]! : "NOT_REQUIRED";
}

function orderLine(o: OrderFields, scale: Scale, now: number): string {
  const atExchange = o.status !== "CANCELLED" && (o.status !== "PENDING" || o.n % 2 === 0) && o.status !== "REJECTED";
  const allotted = o.status === "ALLOTTED";
  const amount = o.amount ?? `${((Number(o.units) * NAV)).toFixed(2)}`;
  return row([o.id, o.distributorId, investorId(o.investor, scale, now), accountId(o.investor, scale, now), o.type, o.status, paymentStatusOf(o),
    o.type === "LUMPSUM_PURCHASE" ? (o.n % 3 ? "ADDITIONAL" : "FRESH") : null, String(100000 + (o.n % 500)),
    allotted ? `${o.investor}/${o.n % 7}` : null, o.amount, o.units, o.details, atExchange ? String(9_000_000_000 + o.n) : null,
    FAILURE[o.status] ?? null, o.status === "REJECTED" ? "REJECTED BY EXCHANGE" : null,
    allotted ? NAV.toFixed(4) : null, allotted ? (Number(amount) / NAV).toFixed(3) : null, allotted ? amount : null, allotted ? day(o.at + 3 * DAY_MS) : null,
    o.parentId ?? null, o.installmentNo ?? null, `BSE${100000 + (o.n % 500)}`, o.cancelled ? "CONFIRMED" : null, o.cancelled ? "requested" : null, "scale",
    stamp(o.at), stamp(allotted ? o.at + 3 * DAY_MS : o.at)]);
}

function* registrations(plan: OrderPlan, scale: Scale, now: number): Generator<Registration> {
  for (let r = 0; r < plan.registrations; r++) yield registrationAt(r, plan, scale, now);
}

/** The child order id of a registration's k-th installment; `first` numbers the registration's first child. */
const childId = (registration: Registration, k: number, first: number, plan: OrderPlan) => idAt("ord", dueOf(registration, k), plan.standalone + plan.registrations + first + k);

/** Every order, in the order bench/scale/order-shapes.ts numbers them. */
function* allOrders(distributors: string[], plan: OrderPlan, scale: Scale, now: number): Generator<OrderFields> {
  for (let s = 0; s < plan.standalone; s++) {
    const o = standaloneAt(s, plan, scale, now);
    const byUnits = o.type === "REDEMPTION" || o.type === "SWITCH";
    yield { ...o, distributorId: distributors[o.distributor]!, n: s, amount: byUnits ? null : `${1000 + (s % 200) * 500}.00`, units: byUnits ? `${(s % 900) + 1}.125` : null, details: "{}" };
  }
  let first = 0;
  for (const reg of registrations(plan, scale, now)) {
    const amount = `${500 + (reg.r % 40) * 250}.00`;
    const details = reg.type === "SIP" || reg.type === "XSIP"
      ? JSON.stringify({ sip: { frequency: "MONTHLY", start_date: day(dueOf(reg, 0)), installments: INSTALLMENTS, installment_day: new Date(dueOf(reg, 0)).getUTCDate() } })
      : "{}";
    const base = { distributorId: distributors[reg.distributor]!, investor: reg.investor, type: reg.type, amount: reg.type === "SWP" || reg.type === "STP" ? null : amount, units: reg.type === "SWP" || reg.type === "STP" ? "10.000" : null };
    yield { ...base, id: reg.id, status: reg.status, n: plan.standalone + reg.r, at: reg.at, details, cancelled: reg.status === "CANCELLED" };
    for (let k = 0; k < reg.children; k++) {
      const n = plan.standalone + plan.registrations + first + k;
      yield { ...base, id: childId(reg, k, first, plan), status: childStatus(reg, k, now), n, at: dueOf(reg, k), details: "{}", parentId: reg.id, installmentNo: k + 1 };
    }
    first += reg.children;
  }
}

export async function copyOrders(client: pg.Client, distributors: string[], plan: OrderPlan, scale: Scale, now: number, progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    for (const o of allOrders(distributors, plan, scale, now)) yield orderLine(o, scale, now);
  }
  await copyLines(client, "orders", COLUMNS, lines(), progress);
}

const PAYMENT_BY_STATUS: Record<string, string> = { PAID: "CAPTURED", FAILED: "FAILED", REFUNDED: "REFUNDED", PENDING: "PENDING" };

/** One payment for each order that takes money and got as far as paying (UNPAID and NOT_REQUIRED have none). */
export async function copyPayments(client: pg.Client, distributors: string[], plan: OrderPlan, scale: Scale, now: number, progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    for (const o of allOrders(distributors, plan, scale, now)) {
      const paymentStatus = paymentStatusOf(o);
      const status = PAYMENT_BY_STATUS[paymentStatus];
      if (!status) continue;
      const mandate = o.parentId !== undefined;
      yield row([idAt("pay", o.at, o.n), o.distributorId, investorId(o.investor, scale, now), o.id, mandate ? "MANDATE" : o.n % 3 ? "UPI" : "NETBANKING", o.amount, status,
        "{}", status === "CAPTURED" || status === "REFUNDED" ? stamp(o.at + 60_000) : null, status === "REFUNDED" ? stamp(o.at + 5 * DAY_MS) : null,
        status === "FAILED" ? "bank_declined" : null, stamp(o.at), stamp(o.at + 60_000)]);
    }
  }
  await copyLines(client, "payments", ["id", "distributor_id", "investor_id", "order_id", "mode", "amount", "status", "details", "captured_at", "refunded_at", "failure_code", "created_at", "updated_at"], lines(), progress);
}

/** Every accepted or cancelled registration's schedule: its children's installments CREATED, the rest SCHEDULED (or CANCELLED). */
export async function copyInstallments(client: pg.Client, plan: OrderPlan, scale: Scale, now: number, progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    let first = 0;
    for (const reg of registrations(plan, scale, now)) {
      if (reg.status === "REJECTED") continue;
      const amount = reg.type === "SWP" || reg.type === "STP" ? null : `${500 + (reg.r % 40) * 250}.00`;
      for (let k = 0; k < INSTALLMENTS; k++) {
        const created = k < reg.children;
        const status = created ? "CREATED" : reg.status === "CANCELLED" ? "CANCELLED" : "SCHEDULED";
        yield row([reg.id, k + 1, day(dueOf(reg, k)), amount, amount ? null : "10.000", status, created ? childId(reg, k, first, plan) : null, stamp(reg.at), stamp(created ? dueOf(reg, k) : reg.at)]);
      }
      first += reg.children;
    }
  }
  await copyLines(client, "order_installments", ["order_id", "installment_no", "due_date", "amount", "units", "status", "child_order_id", "created_at", "updated_at"], lines(), progress);
}
