import { decimalOrNull } from "../../platform/lib/formats.js";
import { paymentDetails } from "./payment-details.js";
import type { PaymentRow } from "./payments.repo.js";

export type PaymentView = ReturnType<typeof toPaymentView>;

/** A payment as the API shows it: masked (the UPI address as stored, masked; nothing encrypted). */
export function toPaymentView(row: PaymentRow) {
  const details = paymentDetails(row);
  return {
    id: row.id,
    order_id: row.orderId,
    basket_id: row.basketId,
    mode: row.mode,
    amount: decimalOrNull(row.amount) as number,
    status: row.status,
    mandate_id: row.mandateId,
    bank_account_id: row.bankAccountId,
    vpa: details.vpa ?? null,
    gateway_reference: row.gatewayReference,
    provider_remark: row.providerRemark,
    failure_code: row.failureCode,
    captured_at: row.capturedAt?.toISOString() ?? null,
    refunded_at: row.refundedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
