import type { Services } from "../core/services.js";
import type { PaymentRow } from "../payments/payments.repo.js";

/**
 * Where the payment simulator sends the investor after Pay or Fail: the page of the order link that owns
 * the payment's order, and otherwise (a payment no link made) the simulator page itself, showing the outcome.
 * Order links are not wired in yet, so every payment returns to the simulator page.
 */
export async function returnAddressOf(_services: Services, payment: Pick<PaymentRow, "id" | "orderId">): Promise<string> {
  return sandboxPaymentPath(payment.id);
}

export const sandboxPaymentPath = (paymentId: string) => `/sandbox/payments/${encodeURIComponent(paymentId)}`;
