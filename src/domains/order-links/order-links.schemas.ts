import { z } from "zod";
import { IsoDate } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import {
  ALL_UNITS,
  AMOUNT,
  OrderProposalObject,
  OrderTypeView,
  OrderedDetailViews,
  PaymentStatus as OrderPaymentStatus,
  OrderStatus,
  UNITS,
  withTypeRules,
} from "../orders/orders.schemas.js";
import { ClientRefView, CreatedAt, PathId, ResourceId, state, stateFilter } from "../shared/fields.schemas.js";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "../payments/payment.states.js";
import { PAYMENT_FAILURE_CODES } from "../../integrations/exchange/outcomes.js";
import { ORDER_LINK_STATUSES } from "./link.states.js";

export const LinkStatus = z.enum(ORDER_LINK_STATUSES);

const EXPIRES_AT = "When the link expires (ISO 8601, UTC).";
const MODE = "How the payment is made (UPI, NETBANKING, MANDATE, CHEQUE), or for a demat account its depository mode.";
const FAIL = "Sandbox: GET to fail it.";

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
  expires_at: z.string().describe(EXPIRES_AT),
  created_at: CreatedAt,
  client_ref: ClientRefView,
  order_type: OrderTypeView,
  order_id: z.string().nullable().describe("The order placed when the investor confirmed."),
  payment_id: z.string().nullable().describe("The order's latest payment."),
});

export const LinkIdInput = z.strictObject({ id: PathId });

export const ListLinksQuery = z.strictObject({
  status: stateFilter(LinkStatus),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const LinkPage = z.object({ data: z.array(LinkView).describe("Your order links on this page, newest first."), next_cursor: NextCursor });

export const PublicLinkInput = z.strictObject({
  link_id: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { description: "The order link's id (`lnk_`...), as in the link's URL." } }),
});

export const PublicLinkView = z.object({
  id: ResourceId,
  status: state(LinkStatus),
  expires_at: z.string().describe(EXPIRES_AT),
  order_type: OrderTypeView,
  scheme_code: z.string().nullable().describe("Null for a SIP_TOPUP (the SIP's scheme), until confirmed."),
  scheme_name: describeAfter(z.string().nullable(), "The scheme's name."),
  amount: describeAfter(z.number().nullable(), AMOUNT),
  units: describeAfter(z.number().nullable(), UNITS),
  all_units: z.boolean().describe(ALL_UNITS),
  sip: OrderedDetailViews.sip,
  stp: OrderedDetailViews.stp,
  swp: OrderedDetailViews.swp,
  switch: OrderedDetailViews.switch,
  investor_name: z.string().describe("Masked: each word's first letter."),
  investor_pan: z.string().describe("Masked PAN."),
  distributor_name: z.string().describe("The distributor's name."),
  distributor_arn: z.string().describe("The distributor's ARN."),
  order_id: describeAfter(z.string().nullable(), "The order's id (`ord_`...)."),
  order_status: OrderStatus.nullable().describe("Once confirmed: the order's status."),
  payment_status: OrderPaymentStatus.nullable().describe("Once confirmed: the order's payment_status."),
  can_pay: z.boolean().describe("The order is ACCEPTED and awaits a payment (none PENDING or CAPTURED)."),
  latest_payment: z
    .object({
      id: ResourceId,
      mode: z.enum(PAYMENT_MODES).describe(MODE),
      amount: z.number().describe(AMOUNT),
      status: state(z.enum(PAYMENT_STATUSES)),
      failure_code: z
        .enum(PAYMENT_FAILURE_CODES)
        .nullable()
        .describe("Why the payment failed, from a closed list (docs/guide.md, \"Errors\"); null unless FAILED."),
    })
    .nullable()
    .describe("The order's latest payment attempt; null before one."),
});

const OrderSimulationLinks = z.object({
  accept: z.string().describe("Sandbox: GET to have the exchange accept the order."),
  reject: z.string().describe("Sandbox: GET to have the exchange reject the order."),
  fail: z.string().describe(FAIL),
  allot: z.string().describe("Sandbox: GET to allot the order."),
});

export const ConfirmedOrder = z.object({
  id: z.string().describe("The order's id."),
  client_ref: ClientRefView,
  created_at: CreatedAt,
  order_type: OrderTypeView,
  status: state(OrderStatus),
  simulation_links: OrderSimulationLinks.nullable().describe("Sandbox: the order's simulation endpoints (absolute URLs); null in production."),
});

const paymentChoiceFields = {
  mode: z.enum(PAYMENT_MODES).describe(MODE),
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
      number: z.string().regex(/^\d{6}$/, "must be 6 digits").describe("The cheque's number, 6 digits."),
      date: IsoDate.describe("The cheque's date (YYYY-MM-DD)."),
      bank_name: z.string().trim().min(1).max(100).describe("The bank the cheque is drawn on."),
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
  amount: z.number().describe(AMOUNT),
  basket_id: z.string().describe("Groups every payment attempt of the link (`bsk_`)."),
  payment_url: z.string().nullable().describe("UPI and NETBANKING: where to send the investor; null otherwise."),
  simulation_links: z
    .object({ capture: z.string().describe("Sandbox: GET to capture the payment."), fail: z.string().describe(FAIL) })
    .nullable()
    .describe("Sandbox: the payment's simulation endpoints (absolute URLs); null in production."),
  status: state(z.enum(PAYMENT_STATUSES)),
});
