import { z } from "zod";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "./payment.states.js";
import { PAYMENT_FAILURE_CODES } from "../../integrations/exchange/outcomes.js";

export const PaymentIdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const PaymentView = z.object({
  id: z.string(),
  order_id: z.string(),
  basket_id: z.string().nullable(),
  mode: z.enum(PAYMENT_MODES),
  amount: z.number(),
  status: z.enum(PAYMENT_STATUSES),
  mandate_id: z.string().nullable(),
  bank_account_id: z.string().nullable(),
  vpa: z.string().nullable().describe("UPI: the virtual payment address, masked."),
  gateway_reference: z.string().nullable().describe("The payment gateway's reference, once presented."),
  provider_remark: z.string().nullable(),
  failure_code: z.enum(PAYMENT_FAILURE_CODES).nullable().describe("Why a FAILED payment failed (closed list); null otherwise."),
  captured_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The payment simulation's fail: why the gateway failed it. */
export const FailPaymentQuery = z.strictObject({
  id: z.string().min(1).max(64),
  remark: z.string().trim().min(1).max(200).optional().describe("The gateway's remark to report (default: a sandbox remark)."),
  failure_code: z.enum(PAYMENT_FAILURE_CODES).optional().describe("Why the payment failed (default `bank_declined`)."),
});

/**
 * A payment's `details` column: what its mode keeps (UPI: the address masked, and encrypted for the
 * exchange's payment API; CHEQUE: the cheque, masked) and what the gateway answered for the investor to
 * see (net banking: the bank's page, encrypted; UPI: its message). Read through payment-details.ts.
 */
export const StoredPaymentDetails = z.looseObject({
  vpa: z.string().optional(),
  vpa_encrypted: z.string().optional(),
  cheque: z.object({ number: z.string(), date: z.string(), bank_name: z.string() }).optional(),
  gateway_page_encrypted: z.string().optional(),
  gateway_message: z.string().optional(),
});
export type StoredPaymentDetails = z.infer<typeof StoredPaymentDetails>;
