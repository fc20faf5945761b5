import { z } from "zod";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "./payment.states.js";

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
  captured_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
