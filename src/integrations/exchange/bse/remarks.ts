import { maskFreeText } from "../../../platform/lib/mask.js";
import type { OrderFailureCode } from "../outcomes.js";

/**
 * The exchange's free-text remarks: kept as they came (PANs masked) in provider_remark, and mapped to the
 * closed failure_code list by the texts the exchange's documents show, one row each (docs/operations.md "Remarks",
 * which a test holds equal to this list). The first row whose text the remark contains (any case) decides,
 * so the mandate rows come before the client and member rows their texts also contain; anything else is
 * `exchange_rejected`. Order entry has no error list of its own (the document says so), so the rows are
 * the MFAPI, mandate, report and login messages that can describe an order's client, mandate, payout
 * account or member.
 */
export const REMARK_PATTERNS: ReadonlyArray<readonly [text: string, code: OrderFailureCode]> = [
  ["INVALID MEMBER CODE FOR GIVEN MANDATE ID", "mandate_invalid"],
  ["INVALID CLIENT CODE FOR GIVEN MANDATE ID", "mandate_invalid"],
  ["INVALID MANDATE NUMBER", "mandate_invalid"],
  ["INVALID MANDATE ID", "mandate_invalid"],
  ["INVALID CLIENT CODE", "client_not_registered"],
  ["CLIENT CODE MANDATORY", "client_not_registered"],
  ["INVALID CLIENT ACCOUNT NUMBER", "payout_account_invalid"],
  ["INVALID MEMBER CODE", "member_not_permitted"],
  ["MEMBER CODE MANDATORY", "member_not_permitted"],
  ["MEMBER IS SUSPENDED", "member_not_permitted"],
  ["BRANCH IS SUSPENDED", "member_not_permitted"],
  ["USER IS DISABLED", "member_not_permitted"],
  ["INVALID USER ID", "member_not_permitted"],
  ["USER NOT EXISTS", "member_not_permitted"],
  ["USER DOES NOT EXIST", "member_not_permitted"],
  ["INVALID SCHEME CODE", "scheme_not_tradable"],
  ["SCHEME CODE MANDATORY", "scheme_not_tradable"],
];

export function failureCodeFor(remark: string): OrderFailureCode {
  const text = remark.toUpperCase();
  return REMARK_PATTERNS.find(([pattern]) => text.includes(pattern))?.[1] ?? "exchange_rejected";
}

/** The remark as stored and shown: trimmed, PANs masked; an empty one is null. */
export function providerRemark(remark: string): string | null {
  const trimmed = remark.trim();
  return trimmed === "" ? null : maskFreeText(trimmed);
}
