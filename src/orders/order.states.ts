/** orders.status, orders.payment_status and order_installments.status (the database checks the same lists). */
export const ORDER_STATUSES = ["PENDING", "ACCEPTED", "REJECTED", "FAILED", "ALLOTTED", "CANCELLED"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_PAYMENT_STATUSES = ["NOT_REQUIRED", "UNPAID", "PENDING", "PAID", "FAILED", "REFUNDED"] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];

export const INSTALLMENT_STATUSES = ["SCHEDULED", "CREATED", "CANCELLED"] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];
