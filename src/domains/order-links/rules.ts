import type { OrderPaymentStatus, OrderStatus } from "../orders/order.states.js";
import type { PaymentStatus } from "../payments/payment.states.js";
import type { OrderLinkStatus } from "./link.states.js";

/** A link past `expires_at` is EXPIRED, whether or not the expiry job has moved it yet. */
export function statusAt(link: { status: OrderLinkStatus; expiresAt: Date }, now: Date): OrderLinkStatus {
  return link.status === "ACTIVE" && link.expiresAt <= now ? "EXPIRED" : link.status;
}

/** `can_pay`: the order is ACCEPTED and waits for money (no payment PENDING or CAPTURED). */
export function awaitsPayment(order: { status: OrderStatus; paymentStatus: OrderPaymentStatus }, latest: { status: PaymentStatus } | null): boolean {
  return order.status === "ACCEPTED" && (order.paymentStatus === "UNPAID" || order.paymentStatus === "FAILED") && latest?.status !== "PENDING";
}
