import { todayInIndia } from "../../../platform/lib/india-date.js";
import type { AllotmentReport, OrderPlacement, OrderStatusReport } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { childOrdersOf } from "./child-orders.repo.js";
import type { OrderEntryAnswer } from "./order-entry.js";
import { isCancelKind, isRegistrationKind, recordOutcome, refsOfOrders, type BseOrderRef } from "./order-refs.repo.js";
import { failureCodeFor, providerRemark } from "./remarks.js";
import { orderStatusRows, REPORTS, reportParams, statementRows, type OrderStatusRow } from "./reports.js";
import { WEB_SERVICE } from "./soap.js";
import { internalRefOf } from "./trans-no-layout.js";

/**
 * The exchange's reports read for our orders: the order status report (placements, and the TransNos sent
 * without an answer) and the allotment and redemption statements, matched to the orders this adapter knows.
 */

/**
 * The order status report's word on our orders: the exchange's orders we know the number of (answered,
 * or installments matched to the exchange's child orders) and the TransNos sent without an answer
 * (matched on their internal reference). VALID is ACCEPTED, INVALID REJECTED (with the remark), anything
 * else PENDING; an order the report does not hold is not reported. Registrations are not orders of the
 * report and are never reported.
 */
export async function orderStatusReports(ctx: BseContext, orderIds: string[]): Promise<OrderStatusReport[]> {
  const known = await knownOrders(ctx, orderIds);
  if (known.length === 0) return [];
  const rows = await orderStatusRowsBetween(ctx, earliest(known), todayInIndia(new Date(ctx.now())));
  const byNumber = new Map(rows.map((r) => [r.orderNumber, r]));
  const byRef = new Map(rows.map((r) => [r.internalRefNo, r]));
  const reports: OrderStatusReport[] = [];
  for (const order of known) {
    const row = order.number ? byNumber.get(order.number) : order.unanswered ? byRef.get(internalRefOf(order.unanswered.transNo)) : undefined;
    if (!row) continue;
    const answer = placementOfRow(row);
    if (order.unanswered && answer.status !== "PENDING") {
      await recordOutcome(ctx.db, order.unanswered.transNo, { outcome: answer.status, exchangeOrderNumber: row.orderNumber || null, remark: answer.remark });
    }
    reports.push({ orderId: order.orderId, status: answer.status, exchangeOrderNumber: answer.status === "REJECTED" ? null : row.orderNumber || null, remark: answer.remark });
  }
  return reports;
}

/**
 * The allotment statement (purchases, a switch's switch-in order) and the redemption statement
 * (redemptions, SWP installments) rows of our orders, matched on the exchange's order number; NAV,
 * units and amount exact decimal strings.
 */
export async function allotmentReports(ctx: BseContext, orderIds: string[]): Promise<AllotmentReport[]> {
  const known = (await knownOrders(ctx, orderIds)).filter((o) => o.number !== null);
  if (known.length === 0) return [];
  const query = { fromDate: earliest(known), toDate: todayInIndia(new Date(ctx.now())) };
  const [purchases, redemptions] = await Promise.all(
    (["allotment", "redemption"] as const).map(async (kind) =>
      statementRows(kind, await ctx.transport.soapNode(WEB_SERVICE, REPORTS[kind].operation, reportParams(kind, reportCredentials(ctx), query))),
    ),
  );
  const byNumber = new Map([...purchases!, ...redemptions!].map((r) => [r.orderNumber, r]));
  return known.flatMap((order): AllotmentReport[] => {
    const row = byNumber.get(order.allotmentNumber ?? order.number!);
    if (!row) return [];
    return [{
      orderId: order.orderId, exchangeOrderNumber: order.number!, folioNo: row.folioNo, schemeCode: row.schemeCode,
      nav: row.nav, units: row.units, amount: row.amount, allotmentDate: row.reportDate, valid: row.valid, remark: providerRemark(row.remark),
    }];
  });
}

/** The order status report's rows of the days `fromDate` to `toDate` (YYYY-MM-DD). */
export async function orderStatusRowsBetween(ctx: BseContext, fromDate: string, toDate: string): Promise<OrderStatusRow[]> {
  return orderStatusRows(await ctx.transport.soapNode(WEB_SERVICE, REPORTS.orderStatus.operation, reportParams("orderStatus", reportCredentials(ctx), { fromDate, toDate })));
}

/** An order status report row as a placement: VALID is ACCEPTED, INVALID REJECTED, anything else PENDING. */
export function placementOfRow(row: OrderStatusRow): OrderEntryAnswer | (OrderPlacement & { status: "PENDING" }) {
  const remark = providerRemark(row.remark);
  if (row.orderStatus === "VALID") return { status: "ACCEPTED", exchangeOrderNumber: row.orderNumber, remark };
  if (row.orderStatus === "INVALID") {
    const text = remark ?? "INVALID AT THE EXCHANGE";
    return { status: "REJECTED", exchangeOrderNumber: row.orderNumber || null, remark: text, failureCode: failureCodeFor(text) };
  }
  return { status: "PENDING", exchangeOrderNumber: row.orderNumber || null, remark };
}

interface KnownOrder {
  orderId: string;
  /** The exchange's order number (a switch's switch-out order); null while a TransNo awaits its answer. */
  number: string | null;
  /** The order whose allotment row is this order's (a switch's switch-in order), when not `number`. */
  allotmentNumber: string | null;
  unanswered: BseOrderRef | null;
  /** YYYY-MM-DD (India): the day it went to the exchange. */
  day: string;
}

/**
 * What this adapter knows of each order: the exchange's order number (and a switch's switch-in number,
 * whose allotment row it is), or its TransNo sent without an answer, and the day it went to the exchange.
 */
async function knownOrders(ctx: BseContext, orderIds: string[]): Promise<KnownOrder[]> {
  const [refs, children] = await Promise.all([refsOfOrders(ctx.db, orderIds), childOrdersOf(ctx.db, orderIds)]);
  const lastRef = new Map<string, BseOrderRef>();
  for (const ref of refs) if (!isCancelKind(ref.kind)) lastRef.set(ref.orderId, ref);
  const known: KnownOrder[] = children.map((c) => ({
    orderId: c.orderId, number: c.exchangeOrderNumber, allotmentNumber: c.switchInOrderNumber, unanswered: null, day: c.orderDate.toISOString().slice(0, 10),
  }));
  for (const ref of lastRef.values()) {
    if (isRegistrationKind(ref.kind)) continue;
    const day = todayInIndia(ref.sentAt);
    if (ref.outcome === "ACCEPTED" && ref.exchangeOrderNumber) {
      known.push({ orderId: ref.orderId, number: ref.exchangeOrderNumber, allotmentNumber: ref.secondOrderNumber, unanswered: null, day });
    } else if (ref.outcome === null) {
      known.push({ orderId: ref.orderId, number: null, allotmentNumber: null, unanswered: ref, day });
    }
  }
  return known;
}

function reportCredentials(ctx: BseContext) {
  return { userId: ctx.config.userId, memberId: ctx.config.memberId, password: ctx.config.password };
}

const earliest = (orders: KnownOrder[]) => orders.map((o) => o.day).sort()[0]!;
