/** payments.status and payments.mode (the database checks the same lists). */
export const PAYMENT_STATUSES = ["PENDING", "CAPTURED", "FAILED", "REFUNDED"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_MODES = ["UPI", "NETBANKING", "MANDATE", "CHEQUE"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

