import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { CreatedAt, PathId, ResourceId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "./payment.states.js";
import { PAYMENT_FAILURE_CODES } from "../../integrations/exchange/outcomes.js";

export const PaymentIdInput = z.strictObject({ id: PathId });

export const PaymentView = z.object({
  id: ResourceId,
  order_id: z.string().describe("The order's id (`ord_`...)."),
  basket_id: describeAfter(z.string().nullable(), "The payment basket: every attempt to pay one order shares it."),
  mode: z.enum(PAYMENT_MODES).describe("How the payment is made (UPI, NETBANKING, MANDATE, CHEQUE), or for a demat account its depository mode."),
  amount: z.number().describe("Rupees, at most 2 decimals."),
  status: state(z.enum(PAYMENT_STATUSES)),
  mandate_id: describeAfter(z.string().nullable(), "The mandate's id (`mdt_`...)."),
  bank_account_id: describeAfter(z.string().nullable(), "The id of one of the investor's bank accounts (GET /api/investors/v1/{id})."),
  vpa: z.string().nullable().describe("UPI: the virtual payment address, masked."),
  gateway_reference: z.string().nullable().describe("The payment gateway's reference, once presented."),
  provider_remark: describeAfter(z.string().nullable(), "The exchange's, bank's or gateway's own remark (anything PAN-shaped masked)."),
  failure_code: z.enum(PAYMENT_FAILURE_CODES).nullable().describe("Why a FAILED payment failed (closed list); null otherwise."),
  captured_at: describeAfter(z.string().nullable(), "When the payment was captured (ISO 8601, UTC); null before."),
  refunded_at: describeAfter(z.string().nullable(), "When the payment was refunded (ISO 8601, UTC); null unless refunded."),
  created_at: CreatedAt,
  updated_at: UpdatedAt,
});

export const ListPaymentsQuery = z.strictObject({
  order_id: z.string().min(1).max(64).optional().describe("Only this order's payments (another distributor's order: an empty list)."),
  status: stateFilter(z.enum(PAYMENT_STATUSES)),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export type ListPaymentsInput = z.infer<typeof ListPaymentsQuery>;

export const PaymentPage = z.object({ data: z.array(PaymentView).describe("Your payments on this page, newest first."), next_cursor: NextCursor });

/** The payment simulation's fail: why the gateway failed it. */
export const FailPaymentQuery = z.strictObject({
  id: PathId,
  remark: z.string().trim().min(1).max(200).optional().describe("The remark to report (default: a sandbox remark)."),
  failure_code: z
    .enum(PAYMENT_FAILURE_CODES)
    .optional()
    .describe("Why the payment failed, from a closed list (docs/guide.md, \"Errors\"); null unless FAILED."),
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
