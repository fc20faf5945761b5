import type { Tx } from "../../platform/db/client.js";
import type { ExchangeCalendar } from "../masters/exchange-calendar.js";
import { findExchangeScheme, findScheme } from "../masters/schemes.service.js";
import { expectedNavDate, isCutOff, type NavDateKind } from "./nav-date.js";
import { isRegistration, orderType } from "./order-types.js";
import { setNavDateExpected, type OrderRow } from "./orders.repo.js";

/**
 * Stores an order's `nav_date_expected` in the transaction of the move that fixes it: a purchase's
 * (lump sum, top-up, SIP/XSIP installment) when its payment is captured, a redemption's, switch's or
 * STP/SWP installment's when the exchange accepts it. Registrations get none (their installments do).
 */

export type NavMoment = "payment_captured" | "accepted";

type OrderFacts = Pick<OrderRow, "id" | "orderType" | "parentOrderId" | "schemeCode" | "exchangeSchemeCode">;

/** The rule an order's NAV date follows, or null for a registration. */
export function navDateKind(order: Pick<OrderRow, "orderType" | "parentOrderId">): NavDateKind | null {
  if (isRegistration(order)) return null;
  return orderType(order.orderType).units === "in" ? "purchase" : "redemption";
}

const MOMENT_OF: Record<NavDateKind, NavMoment> = { purchase: "payment_captured", redemption: "accepted" };

/** Sets the order's NAV date when `moment` is the one its rule counts from; answers the date, or null. */
export async function recordNavDateExpected(tx: Tx, calendar: ExchangeCalendar, order: OrderFacts, moment: NavMoment, at: Date): Promise<string | null> {
  const kind = navDateKind(order);
  if (!kind || MOMENT_OF[kind] !== moment) return null;
  const { liquid, cutOff } = await schemeFacts(tx, order, kind);
  const navDate = expectedNavDate({ kind, liquid, cutOff, at, isBusinessDay: calendar.isBusinessDay });
  await setNavDateExpected(tx, order.id, navDate);
  return navDate;
}

const LIQUID = /LIQUID|OVERNIGHT/i;

/** From the exchange code chosen at placement; an order without one (or whose code is gone) uses our scheme master and the default cut-offs. */
async function schemeFacts(tx: Tx, order: OrderFacts, kind: NavDateKind): Promise<{ liquid: boolean; cutOff: string | null }> {
  const exchange = order.exchangeSchemeCode ? await findExchangeScheme(tx, order.exchangeSchemeCode) : null;
  if (exchange) {
    const cutOff = kind === "purchase" ? exchange.purchaseCutOff : exchange.redemptionCutOff;
    // A malformed master value must not stop a payment or an acceptance: the default applies.
    // A code whose master row names no scheme type is judged by our scheme master's category.
    const type = exchange.schemeType ?? (await findScheme(tx, order.schemeCode))?.category ?? "";
    return { liquid: LIQUID.test(type), cutOff: cutOff && isCutOff(cutOff.trim()) ? cutOff.trim() : null };
  }
  const scheme = await findScheme(tx, order.schemeCode);
  return { liquid: LIQUID.test(scheme?.category ?? ""), cutOff: null };
}
