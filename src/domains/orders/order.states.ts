/** orders.status, orders.payment_status and order_installments.status (the database checks the same lists). */
export const ORDER_STATUSES = ["PENDING", "ACCEPTED", "REJECTED", "FAILED", "ALLOTTED", "CANCELLED"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_PAYMENT_STATUSES = ["NOT_REQUIRED", "UNPAID", "PENDING", "PAID", "FAILED", "REFUNDED"] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];

export const INSTALLMENT_STATUSES = ["SCHEDULED", "CREATED", "CANCELLED", "PAUSED"] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

/** orders.purchase_type: a first purchase in the scheme, or more into a folio. */
export const PURCHASE_TYPES = ["FRESH", "ADDITIONAL"] as const;
export type PurchaseType = (typeof PURCHASE_TYPES)[number];

/** orders.cancellation_status: a registration's cancellation at the exchange, asked and waiting, confirmed, or refused. */
export const CANCELLATION_STATUSES = ["PENDING", "CONFIRMED", "REFUSED"] as const;
export type CancellationStatus = (typeof CANCELLATION_STATUSES)[number];

/** order_pauses.status: a SIP or XSIP pause asked of the exchange, confirmed, refused, or ended early (resumed). */
export const PAUSE_STATUSES = ["PENDING", "CONFIRMED", "REFUSED", "RESUMED"] as const;
export type PauseStatus = (typeof PAUSE_STATUSES)[number];

/**
 * orders.cancellation_reason: asked by the distributor, or SEBI's automatic cancellation after consecutive
 * failed installments (auto-cancel.ts).
 */
export const CANCELLATION_REASONS = ["requested", "auto_cancelled_after_failed_installments"] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
