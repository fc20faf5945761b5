import { maskFreeText } from "../../lib/mask.js";
import type { OrderFailureCode } from "../../orders/order.states.js";

/**
 * The exchange's free-text remarks: kept as they came (PANs masked) in provider_remark, and mapped to the
 * closed failure_code list by the patterns the exchange's documents show (README "BSE remarks", one row
 * each). Anything else is `exchange_rejected`. Order entry has no error list of its own (the document
 * says so), so the patterns are the MFAPI, report and login messages that can describe an order's client,
 * mandate, payout account or member.
 */
export const REMARK_PATTERNS: ReadonlyArray<readonly [pattern: RegExp, code: OrderFailureCode]> = [
  [/INVALID CLIENT CODE|CLIENT CODE MANDATORY/i, "client_not_registered"],
  [/INVALID MANDATE NUMBER/i, "mandate_invalid"],
  [/INVALID CLIENT ACCOUNT NUMBER/i, "payout_account_invalid"],
  [/INVALID MEMBER CODE|MEMBER CODE MANDATORY|MEMBER IS SUSPENDED|BRANCH IS SUSPENDED|USER IS DISABLED|INVALID USER ID|USER NOT EXISTS/i, "member_not_permitted"],
];

export function failureCodeFor(remark: string): OrderFailureCode {
  return REMARK_PATTERNS.find(([pattern]) => pattern.test(remark))?.[1] ?? "exchange_rejected";
}

/** The remark as stored and shown: trimmed, PANs masked; an empty one is null. */
export function providerRemark(remark: string): string | null {
  const trimmed = remark.trim();
  return trimmed === "" ? null : maskFreeText(trimmed);
}
