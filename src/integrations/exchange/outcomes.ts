/**
 * Why the exchange (or the payment gateway behind it) refused or failed something, in our closed words: the
 * database, the API and the adapters share these lists; the exchange's own words stay in provider_remark.
 */

/**
 * payments.failure_code: why a FAILED payment failed (the database checks the same list).
 * `tpv_failed`: the money did not come from a bank account registered for the investor (third-party
 * verification).
 */
export const PAYMENT_FAILURE_CODES = ["payment_expired", "invalid_vpa", "bank_declined", "user_cancelled", "insufficient_funds", "tpv_failed"] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

/** orders.failure_code: why an order ended REJECTED or FAILED (the exchange's own words stay in provider_remark). */
export const ORDER_FAILURE_CODES = [
  "exchange_rejected",
  "exchange_unreachable",
  "allotment_rejected",
  // What the exchange's remarks say, where they say it (bse/remarks.ts; docs/operations.md "Remarks").
  "client_not_registered",
  "mandate_invalid",
  "payout_account_invalid",
  "member_not_permitted",
  // The exchange does not know the scheme code, or not for the order's holding mode.
  "scheme_not_tradable",
] as const;
export type OrderFailureCode = (typeof ORDER_FAILURE_CODES)[number];
