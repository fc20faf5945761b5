import { z } from "zod";
import { IsoDate } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { ORDER_TYPES } from "../orders/order-types.js";
import { OrderProposalObject, OrderedDetailViews, PaymentStatus as OrderPaymentStatus, OrderStatus, withTypeRules } from "../orders/orders.schemas.js";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "../payments/payment.states.js";
import { PAYMENT_FAILURE_CODES } from "../../integrations/exchange/outcomes.js";
import { ORDER_LINK_STATUSES } from "./link.states.js";

export const LinkStatus = z.enum(ORDER_LINK_STATUSES);

export const DEFAULT_EXPIRY_HOURS = 72;

/**
 * A proposed order: every field of `POST /api/orders/v1/`, checked with every rule of placement that
 * does not depend on time, plus how long the link stays open.
 */
export const CreateLinkRequest = withTypeRules(
  OrderProposalObject.extend({
    expires_in_hours: z
      .number()
      .int()
      .min(1)
      .max(168)
      .default(DEFAULT_EXPIRY_HOURS)
      .describe(`Hours until the link expires, 1-168 (default ${DEFAULT_EXPIRY_HOURS}).`),
  }),
);
export type CreateLinkInput = z.infer<typeof CreateLinkRequest>;

export const LinkView = z.object({
  id: z.string().describe("`lnk_` + 160 random bits: a secret, like the link itself."),
  url: z.string().describe("The hosted page for the investor: `<MF_PUBLIC_BASE_URL>/links/<id>`."),
  status: LinkStatus.describe("ACTIVE -> CONFIRMED -> PAID; ACTIVE -> EXPIRED (at `expires_at`) or CANCELLED."),
  expires_at: z.string(),
  created_at: z.string(),
  client_ref: z.string().nullable(),
  order_type: z.enum(ORDER_TYPES),
  order_id: z.string().nullable().describe("The order placed when the investor confirmed."),
  payment_id: z.string().nullable().describe("The order's latest payment."),
});

export const LinkIdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const ListLinksQuery = z.strictObject({
  status: LinkStatus.optional(),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const LinkPage = z.object({ data: z.array(LinkView), next_cursor: NextCursor });

export const PublicLinkInput = z.strictObject({ link_id: z.string().min(1).max(64) });

export const PublicLinkView = z.object({
  id: z.string(),
  status: LinkStatus,
  expires_at: z.string(),
  order_type: z.enum(ORDER_TYPES),
  scheme_code: z.string().nullable().describe("Null for a SIP_TOPUP (the SIP's scheme), until confirmed."),
  scheme_name: z.string().nullable(),
  amount: z.number().nullable(),
  units: z.number().nullable(),
  all_units: z.boolean(),
  sip: OrderedDetailViews.sip,
  stp: OrderedDetailViews.stp,
  swp: OrderedDetailViews.swp,
  switch: OrderedDetailViews.switch,
  investor_name: z.string().describe("Masked: each word's first letter."),
  investor_pan: z.string().describe("Masked PAN."),
  distributor_name: z.string(),
  distributor_arn: z.string(),
  order_id: z.string().nullable(),
  order_status: OrderStatus.nullable().describe("Once confirmed: the order's status."),
  payment_status: OrderPaymentStatus.nullable().describe("Once confirmed: the order's payment_status."),
  can_pay: z.boolean().describe("The order is ACCEPTED and awaits a payment (none PENDING or CAPTURED)."),
  latest_payment: z
    .object({
      id: z.string(),
      mode: z.enum(PAYMENT_MODES),
      amount: z.number(),
      status: z.enum(PAYMENT_STATUSES),
      failure_code: z.enum(PAYMENT_FAILURE_CODES).nullable(),
    })
    .nullable(),
});

const OrderSimulationLinks = z.object({ accept: z.string(), reject: z.string(), fail: z.string(), allot: z.string() });

export const ConfirmedOrder = z.object({
  id: z.string().describe("The order's id."),
  client_ref: z.string().nullable(),
  created_at: z.string(),
  order_type: z.enum(ORDER_TYPES),
  status: OrderStatus,
  simulation_links: OrderSimulationLinks.nullable().describe("Sandbox: the order's simulation endpoints (absolute URLs); null in production."),
});

const paymentChoiceFields = {
  mode: z.enum(PAYMENT_MODES),
  vpa: z
    .string()
    .max(60)
    .regex(/^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$/, "must be a UPI address handle@psp")
    .optional()
    .describe("UPI: the investor's virtual payment address."),
  bank_account_id: z.string().min(1).max(64).optional().describe("NETBANKING: one of the investor's bank accounts."),
  mandate_id: z.string().min(1).max(64).optional().describe("MANDATE: a REGISTERED mandate of the investor."),
  cheque: z
    .strictObject({
      number: z.string().regex(/^\d{6}$/, "must be 6 digits"),
      date: IsoDate,
      bank_name: z.string().trim().min(1).max(100),
    })
    .optional()
    .describe("CHEQUE: the cheque's number, date and bank."),
};

/** Each mode's one field: required for it, refused with any other mode. */
const FIELD_OF_MODE = { UPI: "vpa", NETBANKING: "bank_account_id", MANDATE: "mandate_id", CHEQUE: "cheque" } as const;

type Choice = z.infer<z.ZodObject<typeof paymentChoiceFields>>;

function withModeRules<T extends z.ZodType<Choice>>(schema: T) {
  return schema.superRefine((choice, ctx) => {
    const needed = FIELD_OF_MODE[choice.mode];
    for (const field of Object.values(FIELD_OF_MODE)) {
      if (field === needed && choice[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is required for ${choice.mode}`, params: { reason: "required" } });
      }
      if (field !== needed && choice[field] !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is not used by ${choice.mode}`, params: { reason: "field_not_allowed" } });
      }
    }
  });
}

/** How the investor pays: the hosted page and the bearer path take the same choice. */
export const PaymentChoice = withModeRules(z.strictObject(paymentChoiceFields));
export type PaymentChoiceInput = z.infer<typeof PaymentChoice>;

export const PayLinkRequest = withModeRules(z.strictObject({ link_id: PublicLinkInput.shape.link_id, ...paymentChoiceFields }));

export const LinkPayment = z.object({
  id: z.string().describe("The payment's id (GET /api/payments/v1/{id})."),
  amount: z.number(),
  basket_id: z.string().describe("Groups every payment attempt of the link (`bsk_`)."),
  payment_url: z.string().nullable().describe("UPI and NETBANKING: where to send the investor; null otherwise."),
  simulation_links: z
    .object({ capture: z.string(), fail: z.string() })
    .nullable()
    .describe("Sandbox: the payment's simulation endpoints (absolute URLs); null in production."),
  status: z.enum(PAYMENT_STATUSES),
});
