/** payments.status and payments.mode (the database checks the same lists). */
export const PAYMENT_STATUSES = ["PENDING", "CAPTURED", "FAILED", "REFUNDED"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_MODES = ["UPI", "NETBANKING", "MANDATE", "CHEQUE"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/**
 * payments.failure_code: why a FAILED payment failed (the database checks the same list).
 * `tpv_failed`: the money did not come from a bank account registered for the investor (third-party
 * verification).
 */
export const PAYMENT_FAILURE_CODES = ["payment_expired", "invalid_vpa", "bank_declined", "user_cancelled", "insufficient_funds", "tpv_failed"] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];
