import { todayInIndia } from "../../../platform/lib/india-date.js";
import type { ExchangeAllotmentRow, ExchangeOrderRow } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { isCancelKind, isRegistrationKind, refsOfDay } from "./order-refs.repo.js";
import { orderStatusRowsBetween, placementOfRow } from "./order-reports.js";
import { providerRemark } from "./remarks.js";
import { REPORTS, reportParams, statementRows, type OrderStatusRow } from "./reports.js";
import { WEB_SERVICE } from "./soap.js";
import { internalRefOf } from "./trans-no-layout.js";

/**
 * The exchange's reports of one India day, for the reconciliation: every order of this member that day, not
 * only those this adapter asks about. One order status request (FromDate = ToDate = the day, client code
 * empty, every filter `All`: the document's filters narrow, none is required to be narrower), and the
 * allotment and redemption statements from the day to today (a purchase is allotted on its NAV date, a day
 * or more later), keeping the rows of the day's orders.
 */

/**
 * The order status report of `day`. Rows are tied to our orders where this adapter can: by the TransNo's
 * internal reference (an order sent without an answer) or the number the exchange answered; the service
 * matches the rest by the exchange's order number. A switch-in row of one of our switches is part of that
 * switch (our order carries the switch-out number) and is left out.
 */
export async function orderStatusOfDay(ctx: BseContext, day: string): Promise<ExchangeOrderRow[]> {
  const [rows, refs] = await Promise.all([orderStatusRowsBetween(ctx, day, day), refsOf(ctx, day)]);
  return rows
    .filter((row) => row.orderNumber !== "" && !refs.switchIns.has(row.orderNumber) && (row.date === "" || row.date === day))
    .map((row) => orderRowOf(row, refs.byNumber.get(row.orderNumber) ?? refs.byInternalRef.get(row.internalRefNo) ?? null));
}

/** What our TransNos of the day tell: the orders behind the exchange's numbers and internal references, and our switches' switch-in numbers. */
async function refsOf(ctx: BseContext, day: string) {
  const byNumber = new Map<string, string>();
  const byInternalRef = new Map<string, string>();
  /** A switch-in order's number -> the switch (our order id and its switch-out number). */
  const switchIns = new Map<string, { orderId: string; number: string }>();
  for (const ref of await refsOfDay(ctx.db, day)) {
    if (isCancelKind(ref.kind) || isRegistrationKind(ref.kind)) continue;
    byInternalRef.set(internalRefOf(ref.transNo), ref.orderId);
    if (ref.exchangeOrderNumber) byNumber.set(ref.exchangeOrderNumber, ref.orderId);
    if (ref.exchangeOrderNumber && ref.secondOrderNumber) switchIns.set(ref.secondOrderNumber, { orderId: ref.orderId, number: ref.exchangeOrderNumber });
  }
  return { byNumber, byInternalRef, switchIns };
}

function orderRowOf(row: OrderStatusRow, orderId: string | null): ExchangeOrderRow {
  const placement = placementOfRow(row);
  return {
    orderId,
    exchangeOrderNumber: row.orderNumber,
    clientCode: row.clientCode,
    schemeCode: row.schemeCode,
    buySell: row.buySell === "R" ? "R" : "P",
    status: placement.status,
    amount: decimalOrNull(row.amount, 2),
    units: decimalOrNull(row.units, 3),
    remark: placement.remark,
  };
}

/**
 * The allotment and redemption statements' rows of `day`'s orders, reported from `day` to today (India). A
 * switch's allotment is its switch-in order's row: it is given under the switch (our order, its switch-out number).
 */
export async function allotmentsOfDay(ctx: BseContext, day: string): Promise<ExchangeAllotmentRow[]> {
  const today = todayInIndia(new Date(ctx.now()));
  const query = { fromDate: day, toDate: today > day ? today : day };
  const statement = async (kind: "allotment" | "redemption") =>
    statementRows(kind, await ctx.transport.soapNode(WEB_SERVICE, REPORTS[kind].operation, reportParams(kind, reportCredentials(ctx), query)));
  const [purchases, redemptions, refs] = await Promise.all([statement("allotment"), statement("redemption"), refsOf(ctx, day)]);
  return [...purchases, ...redemptions]
    .filter((row) => row.orderNumber !== "" && (row.orderDate === "" || row.orderDate === day))
    .map((row) => {
      const switchIn = refs.switchIns.get(row.orderNumber);
      return {
        orderId: switchIn?.orderId ?? refs.byNumber.get(row.orderNumber) ?? null, exchangeOrderNumber: switchIn?.number ?? row.orderNumber,
        folioNo: row.folioNo, schemeCode: row.schemeCode, nav: row.nav, units: row.units, amount: row.amount, allotmentDate: row.reportDate,
        valid: row.valid, remark: providerRemark(row.remark),
      };
    });
}

/** A reported NUMERIC as an exact string with `places` decimals; blank or not a decimal: null (the comparison then skips it). */
function decimalOrNull(value: string, places: number): string | null {
  const raw = value.trim();
  if (!/^\d+(\.\d+)?$/.test(raw)) return null;
  const [whole, fraction = ""] = raw.split(".");
  return fraction.length >= places ? raw : `${whole}.${fraction.padEnd(places, "0")}`;
}

function reportCredentials(ctx: BseContext) {
  return { userId: ctx.config.userId, memberId: ctx.config.memberId, password: ctx.config.password };
}
