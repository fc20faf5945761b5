import type { HoldingMode } from "../investors/investor.states.js";
import type { OrderType } from "./order-types.js";
import type { CodeCandidate } from "./placement.repo.js";

/** The exchange's flag that allows an order type out of (or into, for `in`) a code. */
export function allowedFlag(orderType: OrderType, side?: "from" | "into"): keyof Pick<CodeCandidate, "purchaseAllowed" | "redemptionAllowed" | "sipAllowed" | "stpAllowed" | "swpAllowed" | "switchAllowed"> {
  if (side === "into") return orderType === "STP" ? "stpAllowed" : "switchAllowed";
  switch (orderType) {
    case "LUMPSUM_PURCHASE":
    case "SIP_TOPUP":
      return "purchaseAllowed";
    case "REDEMPTION":
      return "redemptionAllowed";
    case "SIP":
    case "XSIP":
      return "sipAllowed";
    case "STP":
      return "stpAllowed";
    case "SWP":
      return "swpAllowed";
    case "SWITCH":
      return "switchAllowed";
  }
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Whether a code takes orders on `today` (India): listed, its AMC active, within its dates (or reopened). */
export function takesOrdersOn(code: CodeCandidate, today: string): boolean {
  if (!code.active || !code.amcActive) return false;
  const within = (code.startDate === null || isoDate(code.startDate) <= today) && (code.endDate === null || isoDate(code.endDate) >= today);
  // A reopening counts only when it came after the end date: a scheme that reopened and closed again is closed.
  // Stryker disable next-line ConditionalExpression: without the null check `null < date` is also true (null compares as 0).
  const reopened = code.reopeningDate !== null && isoDate(code.reopeningDate) <= today && (code.endDate === null || code.endDate < code.reopeningDate);
  return within || reopened;
}

/** The exchange's mode for a holding mode: physical folios, or a depository's demat account. */
export const exchangeModeOf = (holdingMode: HoldingMode | null): "PHYSICAL" | "DEMAT" => (holdingMode === "CDSL" || holdingMode === "NSDL" ? "DEMAT" : "PHYSICAL");

/**
 * The exchange code an order names (exchange-masters.md "Choosing an order's exchange code"): among the
 * codes that take orders today, those serving the order's mode, the exact mode before BOTH; then the one
 * whose flag allows the order type (a target's: the switch or STP into it, and purchases); then the scheme's growth (or payout) ISIN before its reinvestment ISIN;
 * then the lowest Unique No. Null when none serves the mode.
 */
export function chooseExchangeCode<C extends CodeCandidate>(
  codes: readonly C[],
  order: { holdingMode: HoldingMode | null; orderType: OrderType; side?: "from" | "into"; preferredIsin: string | null },
  today: string,
): C | null {
  const mode = exchangeModeOf(order.holdingMode);
  const flag = allowedFlag(order.orderType, order.side);
  // A target must also take purchases: units are bought into it.
  const allows = (c: C) => c[flag] && (order.side !== "into" || c.purchaseAllowed);
  const modeRank = (c: C) => (c.transactionMode === mode ? 0 : 1);
  const flagRank = (c: C) => (allows(c) ? 0 : 1);
  // A code's ISIN is never null, so no code is preferred when the scheme has no ISIN.
  const isinRank = (c: C) => (c.isin === order.preferredIsin ? 0 : 1);
  const uniqueNo = (c: C) => c.uniqueNo ?? Number.MAX_SAFE_INTEGER;
  const rank = (a: C, b: C) => modeRank(a) - modeRank(b) || flagRank(a) - flagRank(b) || isinRank(a) - isinRank(b) || uniqueNo(a) - uniqueNo(b);
  // Ahead of the best so far: a better rank, or the same rank and a code earlier by name (the first of equals stays).
  const ahead = (c: C, best: C) => {
    const difference = rank(c, best);
    return difference < 0 || (difference === 0 && c.code < best.code);
  };
  const serving = codes.filter((c) => takesOrdersOn(c, today) && (c.transactionMode === mode || c.transactionMode === "BOTH"));
  return serving.reduce<C | null>((best, c) => (best === null || ahead(c, best) ? c : best), null);
}

/** Why no code was chosen, for the 400's message: which mode is missing and what the exchange lists instead. */
export function noCodeMessage(schemeCode: string, codes: readonly CodeCandidate[], holdingMode: HoldingMode | null, today: string): string {
  const mode = exchangeModeOf(holdingMode);
  const open = codes.filter((c) => takesOrdersOn(c, today));
  if (codes.length === 0) return `the exchange lists no code for scheme ${schemeCode}: it cannot be traded on the exchange`;
  if (open.length === 0) return `no exchange code of scheme ${schemeCode} takes orders today (inactive, closed, or outside its start and end dates)`;
  const others = [...new Set(open.map((c) => c.transactionMode))].join(", ");
  return `the exchange lists no ${mode} code for scheme ${schemeCode} (only ${others}): choose another scheme or holding mode`;
}
