import type { Services } from "../domains/shared/services.js";
import { linkIdOfOrder } from "../domains/order-links/order-links.service.js";
import type { PaymentRow } from "../domains/payments/payments.repo.js";

/**
 * Where the payment simulator sends the investor after Pay or Fail: the page of the order link that owns
 * the payment's order, and otherwise (a payment no link made) the simulator page itself, showing the outcome.
 */
export async function returnAddressOf(services: Services, payment: Pick<PaymentRow, "id" | "orderId">): Promise<string> {
  const linkId = await linkIdOfOrder(services, payment.orderId);
  return linkId ? linkPagePath(linkId) : sandboxPaymentPath(payment.id);
}

export const sandboxPaymentPath = (paymentId: string) => `/sandbox/payments/${encodeURIComponent(paymentId)}`;
export const linkPagePath = (linkId: string) => `/links/${encodeURIComponent(linkId)}`;
