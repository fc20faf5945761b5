import type { ExchangeAllotmentRow, ExchangeOrderRow } from "../../integrations/exchange/port.js";
import { Decimal } from "../../platform/lib/money.js";
import type { OrderStatus } from "../orders/order.states.js";
import type { MismatchKind } from "./reconciliation.states.js";

/**
 * The comparison of one day's orders, ours with the exchange's (its order status report and its allotment and
 * redemption statements), as a pure function: no clock, no database. Amounts and units are compared as exact
 * decimals ("1000" and "1000.00" agree).
 */

/** One of our orders as the comparison needs it (decimals as exact strings). */
export interface OurOrder {
  id: string;
  distributorId: string;
  exchangeOrderNumber: string | null;
  status: OrderStatus;
  amount: string | null;
  units: string | null;
  allUnits: boolean;
  allottedUnits: string | null;
  allottedAmount: string | null;
}

export interface Mismatch {
  kind: MismatchKind;
  /** Unique per date: the kind and our order id (or the exchange's number for an order we do not have). */
  key: string;
  orderId: string | null;
  distributorId: string | null;
  exchangeOrderNumber: string | null;
  /** What each side says, as text: a status, an amount (2 places), units (3 places). */
  ours: string | null;
  theirs: string | null;
  /** ALLOTMENT_MISSED: the statement's row, which the reconciliation applies as the status sync would. */
  allotment: ExchangeAllotmentRow | null;
}

/** Our statuses that say the exchange has the order and took it. */
const TAKEN: ReadonlySet<OrderStatus> = new Set(["ACCEPTED", "ALLOTTED"]);
/** Our statuses that say the exchange does not hold it (refused it, never got it, or it was withdrawn). */
const NOT_TAKEN: ReadonlySet<OrderStatus> = new Set(["REJECTED", "FAILED", "CANCELLED"]);

export function compareDay(ours: readonly OurOrder[], theirOrders: readonly ExchangeOrderRow[], theirAllotments: readonly ExchangeAllotmentRow[]): Mismatch[] {
  // Keyed by string | null: a row without our id finds nothing by id, and the null key of our unnumbered orders is
  // never looked up (every exchange row carries its number).
  const byId = new Map<string | null, OurOrder>(ours.map((o) => [o.id, o]));
  const byNumber = new Map<string | null, OurOrder>(ours.map((o) => [o.exchangeOrderNumber, o]));
  const find = (row: { orderId: string | null; exchangeOrderNumber: string }) => byId.get(row.orderId) ?? byNumber.get(row.exchangeOrderNumber);
  const found = new Map<string, Mismatch>();
  const add = (m: Omit<Mismatch, "key" | "allotment"> & { allotment?: ExchangeAllotmentRow; part?: string }) => {
    const key = `${m.kind}:${m.orderId ?? m.exchangeOrderNumber}${m.part ? `:${m.part}` : ""}`;
    if (!found.has(key)) found.set(key, { kind: m.kind, key, orderId: m.orderId, distributorId: m.distributorId, exchangeOrderNumber: m.exchangeOrderNumber, ours: m.ours, theirs: m.theirs, allotment: m.allotment ?? null });
  };
  const seen = new Set<string>();

  for (const row of theirOrders) {
    const order = find(row);
    if (!order) {
      add({ kind: "MISSING_HERE", orderId: null, distributorId: null, exchangeOrderNumber: row.exchangeOrderNumber, ours: null, theirs: describeRow(row) });
      continue;
    }
    seen.add(order.id);
    const at = { orderId: order.id, distributorId: order.distributorId, exchangeOrderNumber: order.exchangeOrderNumber ?? row.exchangeOrderNumber };
    const statusDiffers =
      (row.status === "REJECTED" && !NOT_TAKEN.has(order.status)) || (row.status === "ACCEPTED" && (NOT_TAKEN.has(order.status) || order.status === "PENDING"));
    if (statusDiffers) {
      add({ kind: "STATUS", ...at, ours: order.status, theirs: withRemark(row.status, row.remark) });
      continue;
    }
    if (row.status === "REJECTED") continue;
    if (!order.allUnits && differs(order.amount, row.amount)) add({ kind: "AMOUNT", ...at, ours: fixed(order.amount!, 2), theirs: fixed(row.amount!, 2) });
    if (!order.allUnits && differs(order.units, row.units)) add({ kind: "UNITS", ...at, ours: fixed(order.units!, 3), theirs: fixed(row.units!, 3) });
  }

  for (const row of theirAllotments) {
    const order = find(row);
    if (!order) {
      add({ kind: "MISSING_HERE", orderId: null, distributorId: null, exchangeOrderNumber: row.exchangeOrderNumber, ours: null, theirs: describeAllotment(row) });
      continue;
    }
    seen.add(order.id);
    const at = { orderId: order.id, distributorId: order.distributorId, exchangeOrderNumber: order.exchangeOrderNumber ?? row.exchangeOrderNumber };
    if (found.has(`STATUS:${order.id}`)) continue;
    if (!row.valid) {
      if (TAKEN.has(order.status)) add({ kind: "STATUS", ...at, ours: order.status, theirs: withRemark("ALLOTMENT REJECTED", row.remark) });
      continue;
    }
    if (order.status === "ACCEPTED") {
      add({ kind: "ALLOTMENT_MISSED", ...at, ours: "ACCEPTED", theirs: describeAllotment(row), allotment: row });
    } else if (order.status === "ALLOTTED") {
      const units = new Decimal(row.units).toDecimalPlaces(3, Decimal.ROUND_DOWN).toFixed(3);
      const amount = new Decimal(row.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
      if (differs(order.allottedUnits, units)) add({ kind: "UNITS", ...at, part: "allotment", ours: fixed(order.allottedUnits!, 3), theirs: units });
      if (differs(order.allottedAmount, amount)) add({ kind: "AMOUNT", ...at, part: "allotment", ours: fixed(order.allottedAmount!, 2), theirs: amount });
    } else {
      add({ kind: "STATUS", ...at, ours: order.status, theirs: "ALLOTTED" });
    }
  }

  for (const order of ours) {
    if (seen.has(order.id)) continue;
    const held = order.status === "PENDING" && order.exchangeOrderNumber !== null;
    if (TAKEN.has(order.status) || held) {
      add({ kind: "MISSING_AT_EXCHANGE", orderId: order.id, distributorId: order.distributorId, exchangeOrderNumber: order.exchangeOrderNumber, ours: order.status, theirs: null });
    }
  }
  return [...found.values()];
}

/** Whether two decimals both given differ (a side that gives none is not compared). */
function differs(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && !new Decimal(a).eq(new Decimal(b));
}

const fixed = (value: string, places: number) => new Decimal(value).toFixed(places);

const withRemark = (status: string, remark: string | null) => (remark ? `${status}: ${remark}` : status);

function describeRow(row: ExchangeOrderRow): string {
  const size = row.amount !== null && !new Decimal(row.amount).isZero() ? `amount ${fixed(row.amount, 2)}` : row.units !== null ? `units ${fixed(row.units, 3)}` : "no amount";
  return `${row.status} ${row.buySell === "R" ? "redemption" : "purchase"} of ${row.schemeCode}, ${size}`;
}

function describeAllotment(row: ExchangeAllotmentRow): string {
  if (!row.valid) return withRemark("ALLOTMENT REJECTED", row.remark);
  return `ALLOTTED ${fixed(row.units, 3)} units at NAV ${fixed(row.nav, 4)}, amount ${fixed(row.amount, 2)}, on ${row.allotmentDate}`;
}

/** The exchange business day before `day` (YYYY-MM-DD). */
export function previousBusinessDay(day: string, isBusinessDay: (date: string) => boolean): string {
  let t = Date.parse(`${day}T00:00:00Z`);
  for (let i = 0; i < 30; i++) {
    t -= 86_400_000;
    const date = new Date(t).toISOString().slice(0, 10);
    if (isBusinessDay(date)) return date;
  }
  throw new Error(`no business day in the 30 days before ${day}`);
}
