import { z } from "zod";
import { ClientRef, IsoDate, Rupees, TodayOrLater } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { ORDER_TYPES } from "./order-types.js";
import type { HoldingMode } from "../investors/investor.states.js";
import { CANCELLATION_STATUSES, INSTALLMENT_STATUSES, ORDER_PAYMENT_STATUSES, ORDER_STATUSES, PURCHASE_TYPES } from "./order.states.js";
import { typeRules } from "./rules.js";

const Frequency = z.enum(["MONTHLY", "QUARTERLY", "WEEKLY"]);
const StartDate = TodayOrLater;
const Installments = z.number().int().min(1).max(1200);

const Units = z
  .number()
  .positive()
  .max(1e12)
  .refine((v) => Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6, { message: "at most 3 decimals", params: { reason: "too_many_decimals" } });

const euin = {
  code: z.string().regex(/^E\d{6}$/, "must be E followed by 6 digits").optional(),
  declaration: z.boolean().describe("The distributor's declaration that the order is execution-only when no EUIN is given."),
};
const Euin = z.strictObject(euin);

/**
 * The objects that carry an order's type-specific details. A request's are strict and its start dates
 * must be today or later (in India); read back, an order keeps the dates it was placed with, and a key
 * it does not know is dropped rather than failing the read.
 */
function detailObjects(startDate: z.ZodType<string>, object: typeof z.strictObject | typeof z.object) {
  const plan = { frequency: Frequency, start_date: startDate, installments: Installments };
  return {
    sip: object({
      frequency: Frequency.optional(),
      start_date: startDate.optional(),
      installments: Installments.optional(),
      installment_day: z.number().int().min(1).max(28).optional(),
      sip_order_id: z.string().min(1).max(64).optional().describe("SIP_TOPUP: the ACCEPTED SIP or XSIP to top up."),
    }),
    stp: object({ to_scheme_code: z.string().min(1).max(20), ...plan }),
    swp: object(plan),
    switch: object({ to_scheme_code: z.string().min(1).max(20) }),
  };
}

const Ordered = detailObjects(IsoDate, z.object);

/** The `details` column of an order: the request's euin and type objects, as placed. */
export const StoredOrderDetails = z.object({
  euin: z.object(euin).optional(),
  sip: Ordered.sip.optional(),
  stp: Ordered.stp.optional(),
  swp: Ordered.swp.optional(),
  switch: Ordered.switch.optional(),
});
export type StoredOrderDetails = z.infer<typeof StoredOrderDetails>;

/**
 * The fields of an order request. `startDate` is the one rule that depends on time: placement
 * wants start dates today or later; a proposal (an order link) is checked as a real date only, and
 * again as placement when the investor confirms it.
 */
function orderRequestFields(startDate: z.ZodType<string>) {
  const { sip, stp, swp, switch: switchObject } = detailObjects(startDate, z.strictObject);
  return {
    investment_account_id: z.string().min(1).max(64),
    investor_id: z.string().min(1).max(64).optional().describe("When given, must be the investment account's investor."),
    order_type: z.enum(ORDER_TYPES),
    purchase_type: z.enum(PURCHASE_TYPES).optional(),
    // HOLDING_MODES, in the order this request has always documented them.
    holding_mode: z.enum(["CDSL", "NSDL", "PHYSICAL"] as const satisfies readonly HoldingMode[]).optional(),
    scheme_code: z.string().min(1).max(20).optional().describe("Required except for SIP_TOPUP (the SIP's scheme)."),
    folio_no: z.string().trim().min(1).max(30).optional(),
    amount: Rupees(1_000_000_000).optional(),
    units: Units.optional(),
    all_units: z.boolean().optional(),
    bank_account_id: z.string().min(1).max(64).optional(),
    mandate_id: z.string().min(1).max(64).optional(),
    client_ref: ClientRef.optional(),
    remarks: z.string().max(255).optional(),
    sub_broker_arn: z.string().regex(/^ARN-\d{1,10}$/, "must be ARN- followed by digits").optional(),
    euin: Euin.optional(),
    sip: sip.optional(),
    stp: stp.optional(),
    switch: switchObject.optional(),
    swp: swp.optional(),
  };
}

/** Adds the per-type rules (rules.ts typeRules) to an object schema holding the order request fields. */
export function withTypeRules<T extends z.ZodType<PlaceOrderInput>>(schema: T) {
  return schema.superRefine((order, ctx) => {
    for (const issue of typeRules(order)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { reason: issue.reason } });
  });
}

const PlacementObject = z.strictObject(orderRequestFields(StartDate));

export const PlaceOrderRequest = withTypeRules(PlacementObject);

/**
 * The order request fields with every schema rule of placement except those that depend on time
 * (start dates are real dates, not necessarily today or later): what an order link proposes. Extend
 * it, then add the per-type rules with `withTypeRules`.
 */
export const OrderProposalObject = z.strictObject(orderRequestFields(IsoDate));

export type PlaceOrderInput = z.infer<typeof PlacementObject>;

export const OrderStatus = z.enum(ORDER_STATUSES);
export const PaymentStatus = z.enum(ORDER_PAYMENT_STATUSES);

export const PlacedOrder = z.object({
  id: z.string(),
  client_ref: z.string().nullable(),
  created_at: z.string(),
  order_type: z.enum(ORDER_TYPES),
  status: OrderStatus,
});

/** The type objects as ordered, without what placement adds (an order link's proposal shows these). */
export const OrderedDetailViews = {
  sip: Ordered.sip.nullable().describe("SIP and XSIP: the plan; SIP_TOPUP: `{sip_order_id}`; null for other types."),
  stp: Ordered.stp.nullable().describe("STP: the target scheme and plan; null for other types."),
  swp: Ordered.swp.nullable().describe("SWP: the plan; null for other types."),
  switch: Ordered.switch.nullable().describe("SWITCH: the target scheme; null for other types."),
};

export const OrderView = PlacedOrder.extend({
  payment_status: PaymentStatus,
  payment_id: z.string().nullable().describe("The order's latest payment (GET /api/payments/v1/{id})."),
  investor_id: z.string(),
  investment_account_id: z.string(),
  scheme_code: z.string().describe("The scheme (AMFI's code in the scheme master)."),
  exchange_scheme_code: z
    .string()
    .nullable()
    .describe("The exchange's code for the scheme, chosen at placement for the order's holding mode (the scheme's `exchange_codes`); what the order names at the exchange."),
  purchase_type: z.string().nullable(),
  holding_mode: z.string().nullable(),
  folio_no: z.string().nullable(),
  amount: z.number().nullable(),
  units: z.number().nullable().describe("Requested units; after allotment, the allotted units."),
  all_units: z.boolean(),
  mandate_id: z.string().nullable(),
  remarks: z.string().nullable(),
  exchange_order_number: z.string().nullable(),
  provider_remark: z.string().nullable().describe("The exchange's own remark, verbatim."),
  failure_code: z.string().nullable().describe("Closed reason code when REJECTED or FAILED."),
  nav: z.number().nullable(),
  allotted_amount: z.number().nullable().describe("After allotment: the amount invested or paid out."),
  allotment_date: z.string().nullable(),
  nav_date_expected: z
    .string()
    .nullable()
    .describe(
      "The date YYYY-MM-DD whose NAV the order is expected to get (SEBI's cut-off rules, the exchange's business days, India time): " +
        "a purchase's once its payment is captured, a redemption's, switch's (the switch-out's date; the switch-in follows it) or " +
        "STP/SWP installment's once the exchange accepts it; null until then, and for SIP/XSIP/STP/SWP registrations. " +
        "An estimate: after allotment, allotment_date is the fact.",
    ),
  parent_order_id: z.string().nullable().describe("An installment: the SIP, XSIP, STP or SWP registration it belongs to."),
  installment_no: z.number().int().nullable(),
  cancellation: z
    .object({
      requested_at: z.string().nullable().describe("When the cancellation was (last) asked."),
      status: z.enum(CANCELLATION_STATUSES).describe("PENDING: asked, the exchange has not answered; CONFIRMED: the exchange cancelled it (the order is CANCELLED); REFUSED: the exchange refused (the order stays ACCEPTED; it may be asked again)."),
      remark: z.string().nullable().describe("The exchange's remark when it refused."),
    })
    .nullable()
    .describe("A SIP, XSIP, STP or SWP registration's cancellation at the exchange; null when none was asked (and for every other order)."),
  bank_account_id: z.string().nullable(),
  sub_broker_arn: z.string().nullable(),
  euin: StoredOrderDetails.shape.euin.unwrap().nullable().describe("As ordered; null when none was given."),
  sip: Ordered.sip
    .nullable()
    .describe("SIP and XSIP (and their installments): the plan as ordered; SIP_TOPUP: `{sip_order_id}`; null for other types."),
  stp: Ordered.stp
    .extend({ to_exchange_scheme_code: z.string().nullable().describe("The exchange's code for the target, chosen at placement.") })
    .nullable()
    .describe("STP (and its installments): the target scheme and plan as ordered; null for other types."),
  swp: Ordered.swp.nullable().describe("SWP (and its installments): the plan as ordered; null for other types."),
  switch: Ordered.switch
    .extend({ to_exchange_scheme_code: z.string().nullable().describe("The exchange's code for the target, chosen at placement.") })
    .nullable()
    .describe("SWITCH: the target scheme as ordered; null for other types."),
  updated_at: z.string(),
});

export const OrderIdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const ListOrdersQuery = z.strictObject({
  status: OrderStatus.optional(),
  investor_id: z.string().min(1).max(64).optional(),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const OrderPage = z.object({ data: z.array(OrderView), next_cursor: NextCursor });

export const AllotQuery = z.strictObject({
  id: z.string().min(1).max(64),
  units: z.coerce.number().min(0.001).max(1e12).optional().describe("Allotted units (default amount / NAV, truncated to 3 decimals)."),
  nav: z.coerce.number().min(0.0001).max(1e9).optional().describe("Allotted NAV, 4 decimals (default 10.00)."),
  folio_no: z.string().trim().min(1).max(30).optional().describe("Folio (default a synthesized simulation folio)."),
  allotment_date: IsoDate.optional().describe("Allotment date YYYY-MM-DD (default today)."),
});

export const InstallmentList = z.object({
  data: z.array(
    z.object({
      installment_no: z.number().int(),
      due_date: z.string(),
      amount: z.number().nullable(),
      units: z.number().nullable(),
      status: z.enum(INSTALLMENT_STATUSES),
      order_id: z.string().nullable().describe("The installment's own order, once created on its due date."),
    }),
  ),
});
