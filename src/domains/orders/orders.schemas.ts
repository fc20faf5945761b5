import { z } from "zod";
import { atMostDecimals, ClientRef, IsoDate, Rupees, TodayOrLater } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { ClientRefView, CreatedAt, InvestorIdView, PathId, ResourceId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { ORDER_TYPES } from "./order-types.js";
import type { HoldingMode } from "../investors/investor.states.js";
import { CANCELLATION_REASONS, CANCELLATION_STATUSES, INSTALLMENT_STATUSES, ORDER_PAYMENT_STATUSES, PAUSE_STATUSES, ORDER_STATUSES, PURCHASE_TYPES } from "./order.states.js";
import { typeRules } from "./rules.js";

/** Said of the fields alike in the request and the answers (an order link's too). */
export const AMOUNT = "Rupees, at most 2 decimals.";
export const UNITS = "Units, at most 3 decimals.";
export const ALL_UNITS = "Redeem or switch every unit held in the folio (instead of `amount` or `units`).";
const KIND_OF_ORDER = "The kind of order: LUMPSUM_PURCHASE, REDEMPTION, SWITCH, SIP, XSIP, STP, SWP or SIP_TOPUP.";
const INVESTMENT_ACCOUNT_ID = "The investment account's id (`iac_`...): an investor's account that orders are placed on (GET /api/investors/v1/{id}).";
const BANK_ACCOUNT_ID = "The id of one of the investor's bank accounts (GET /api/investors/v1/{id}).";
const MANDATE_ID = "The mandate's id (`mdt_`...).";
const PURCHASE_TYPE = "FRESH (a new folio) or ADDITIONAL (into an existing folio, `folio_no`).";
const HOLDING_MODE = "How the units are held: CDSL or NSDL (demat) or PHYSICAL (a folio with the registrar).";
const FOLIO_NO = "The folio: the investor's account with the fund house.";
const REMARKS = "Free text sent with the order (PANs masked when stored and shown).";
const SUB_BROKER_ARN = "A sub-broker's ARN (`ARN-` + digits).";

const Frequency = z.enum(["MONTHLY", "QUARTERLY", "WEEKLY"]).describe("How often installments fall: MONTHLY, QUARTERLY or WEEKLY.");
const StartDate = TodayOrLater;
const Installments = z.number().int().min(1).max(1200).describe("How many installments the plan has.");
const START_DATE = "The first date (YYYY-MM-DD, India): today or later in a request.";
const TO_SCHEME_CODE = "The scheme units move into (GET /api/masters/v1/schemes).";

/** The kind of an order, as an answer names it. */
export const OrderTypeView = z.enum(ORDER_TYPES).describe(KIND_OF_ORDER);

const Units = z
  .number()
  .positive()
  .max(1e12)
  .refine(atMostDecimals(3), { message: "at most 3 decimals", params: { reason: "too_many_decimals" } });

const euin = {
  code: z
    .string()
    .regex(/^E\d{6}$/, "must be E followed by 6 digits")
    .describe("The employee's EUIN: `E` + 6 digits; omit it with `declaration: true` for an execution-only order.")
    .optional(),
  declaration: z.boolean().describe("The distributor's declaration that the order is execution-only when no EUIN is given."),
};
const Euin = z.strictObject(euin);

/**
 * The objects that carry an order's type-specific details. A request's are strict and its start dates
 * must be today or later (in India); read back, an order keeps the dates it was placed with, and a key
 * it does not know is dropped rather than failing the read.
 */
function detailObjects(startDate: z.ZodType<string>, object: typeof z.strictObject | typeof z.object) {
  const described = startDate.describe(START_DATE);
  const plan = { frequency: Frequency, start_date: described, installments: Installments };
  const toSchemeCode = z.string().min(1).max(20).describe(TO_SCHEME_CODE);
  return {
    sip: object({
      frequency: Frequency.optional(),
      start_date: described.optional(),
      installments: Installments.optional(),
      installment_day: z.number().int().min(1).max(28).describe("The day of the month installments fall on (1-28).").optional(),
      sip_order_id: z.string().min(1).max(64).optional().describe("SIP_TOPUP: the ACCEPTED SIP or XSIP to top up."),
    }),
    stp: object({ to_scheme_code: toSchemeCode, ...plan }),
    swp: object(plan),
    switch: object({ to_scheme_code: toSchemeCode }),
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
    investment_account_id: z.string().min(1).max(64).describe(INVESTMENT_ACCOUNT_ID),
    investor_id: z.string().min(1).max(64).optional().describe("When given, must be the investment account's investor."),
    order_type: z.enum(ORDER_TYPES).describe(KIND_OF_ORDER),
    purchase_type: z.enum(PURCHASE_TYPES).describe(PURCHASE_TYPE).optional(),
    // HOLDING_MODES, in the order this request has always documented them.
    holding_mode: z.enum(["CDSL", "NSDL", "PHYSICAL"] as const satisfies readonly HoldingMode[]).describe(HOLDING_MODE).optional(),
    scheme_code: z.string().min(1).max(20).optional().describe("Required except for SIP_TOPUP (the SIP's scheme)."),
    folio_no: z.string().trim().min(1).max(30).describe(FOLIO_NO).optional(),
    amount: Rupees(1_000_000_000).describe(AMOUNT).optional(),
    units: Units.describe(UNITS).optional(),
    all_units: z.boolean().describe(ALL_UNITS).optional(),
    bank_account_id: z.string().min(1).max(64).describe(BANK_ACCOUNT_ID).optional(),
    mandate_id: z.string().min(1).max(64).describe(MANDATE_ID).optional(),
    client_ref: ClientRef.optional(),
    remarks: z.string().max(255).describe(REMARKS).optional(),
    sub_broker_arn: z.string().regex(/^ARN-\d{1,10}$/, "must be ARN- followed by digits").describe(SUB_BROKER_ARN).optional(),
    euin: Euin.describe("The employee's EUIN, or the execution-only declaration.").optional(),
    sip: sip.describe("SIP, XSIP and SIP_TOPUP: the plan (frequency, start date, installments) or the SIP to top up.").optional(),
    stp: stp.describe("STP: the scheme units move into and the plan.").optional(),
    switch: switchObject.describe("SWITCH: the scheme units move into.").optional(),
    swp: swp.describe("SWP: the plan of withdrawals.").optional(),
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

const NAV = "The net asset value the units were allotted at (rupees, 4 decimals).";
const ALLOTMENT_DATE = "The date units were allotted (YYYY-MM-DD); null before allotment.";
const INSTALLMENT_NO = "The installment's number, from 1.";
export const PaymentStatus = z.enum(ORDER_PAYMENT_STATUSES);

export const PlacedOrder = z.object({
  id: ResourceId,
  client_ref: ClientRefView,
  created_at: CreatedAt,
  order_type: OrderTypeView,
  status: state(OrderStatus),
});

/** The type objects as ordered, without what placement adds (an order link's proposal shows these). */
export const OrderedDetailViews = {
  sip: Ordered.sip.nullable().describe("SIP and XSIP: the plan; SIP_TOPUP: `{sip_order_id}`; null for other types."),
  stp: Ordered.stp.nullable().describe("STP: the target scheme and plan; null for other types."),
  swp: Ordered.swp.nullable().describe("SWP: the plan; null for other types."),
  switch: Ordered.switch.nullable().describe("SWITCH: the target scheme; null for other types."),
};

export const PauseView = z.object({
  id: z.string().describe("The pause's id."),
  order_id: z.string().describe("The SIP or XSIP registration paused."),
  status: z.enum(PAUSE_STATUSES).describe("PENDING until the exchange confirms (CONFIRMED) or refuses (REFUSED, the schedule put back); RESUMED when ended early."),
  installments: z.number().int().describe("Installments paused."),
  from_installment_no: z.number().int().describe("The first paused installment's number."),
  from_date: z.string().describe("The first paused installment's due date (YYYY-MM-DD)."),
  until_date: z.string().describe("The last paused installment's due date (YYYY-MM-DD); the plan resumes by itself after it."),
  requested_at: z.string().describe("When the pause was asked."),
  resumed_at: z.string().nullable().describe("When the pause was ended early, if it was."),
  remark: z.string().nullable().describe("The exchange's remark when it refused."),
});

export const OrderView = PlacedOrder.extend({
  payment_status: PaymentStatus.describe(
    "The order's payment: NOT_REQUIRED (nothing to pay: redemptions, switches, plans debited by mandate), UNPAID, PENDING, PAID, FAILED or REFUNDED.",
  ),
  payment_id: z.string().nullable().describe("The order's latest payment (GET /api/payments/v1/{id})."),
  investor_id: InvestorIdView,
  investment_account_id: z.string().describe(INVESTMENT_ACCOUNT_ID),
  scheme_code: z.string().describe("The scheme (AMFI's code in the scheme master)."),
  exchange_scheme_code: z
    .string()
    .nullable()
    .describe("The exchange's code for the scheme, chosen at placement for the order's holding mode (the scheme's `exchange_codes`); what the order names at the exchange."),
  purchase_type: describeAfter(z.string().nullable(), PURCHASE_TYPE),
  holding_mode: describeAfter(z.string().nullable(), HOLDING_MODE),
  folio_no: describeAfter(z.string().nullable(), FOLIO_NO),
  amount: describeAfter(z.number().nullable(), AMOUNT),
  units: z.number().nullable().describe("Requested units; after allotment, the allotted units."),
  all_units: z.boolean().describe(ALL_UNITS),
  mandate_id: describeAfter(z.string().nullable(), MANDATE_ID),
  remarks: describeAfter(z.string().nullable(), REMARKS),
  exchange_order_number: describeAfter(z.string().nullable(), "The exchange's order number, once it has one."),
  provider_remark: z.string().nullable().describe("The exchange's own remark, verbatim."),
  failure_code: z.string().nullable().describe("Closed reason code when REJECTED or FAILED."),
  nav: describeAfter(z.number().nullable(), NAV),
  allotted_amount: z.number().nullable().describe("After allotment: the amount invested or paid out."),
  allotment_date: describeAfter(z.string().nullable(), ALLOTMENT_DATE),
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
  installment_no: z.number().int().nullable().describe(INSTALLMENT_NO),
  cancellation: z
    .object({
      requested_at: z.string().nullable().describe("When the cancellation was (last) asked."),
      status: z.enum(CANCELLATION_STATUSES).describe("PENDING: asked, the exchange has not answered; CONFIRMED: the exchange cancelled it (the order is CANCELLED); REFUSED: the exchange refused (the order stays ACCEPTED; it may be asked again)."),
      remark: z.string().nullable().describe("The exchange's remark when it refused."),
      reason: z
        .enum(CANCELLATION_REASONS)
        .nullable()
        .describe(
          "Why it was asked: requested (POST /api/orders/v1/{id}/cancel), or auto_cancelled_after_failed_installments (SEBI: 3 consecutive failed installments of a monthly or quarterly SIP/XSIP, 6 of a weekly one); null for a cancellation asked before reasons were kept.",
        ),
    })
    .nullable()
    .describe("A SIP, XSIP, STP or SWP registration's cancellation at the exchange; null when none was asked (and for every other order)."),
  pause: PauseView.nullable().describe(
    "A SIP or XSIP registration's latest pause (POST /api/orders/v1/{id}/pause), whatever its status; null when none was asked (and for every other order).",
  ),
  bank_account_id: describeAfter(z.string().nullable(), BANK_ACCOUNT_ID),
  sub_broker_arn: describeAfter(z.string().nullable(), SUB_BROKER_ARN),
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
  updated_at: UpdatedAt,
});

export const OrderIdInput = z.strictObject({ id: PathId });

export const ListOrdersQuery = z.strictObject({
  status: stateFilter(OrderStatus),
  investor_id: z.string().min(1).max(64).optional().describe("Only this investor's (another distributor's investor: an empty list)."),
  order_type: z.enum(ORDER_TYPES).optional().describe("Only orders of this kind: LUMPSUM_PURCHASE, REDEMPTION, SWITCH, SIP, XSIP, STP, SWP or SIP_TOPUP."),
  parent_order_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("Only the installment orders of this SIP, XSIP, STP or SWP registration (its own order id); another distributor's order: an empty list."),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export type ListOrdersInput = z.infer<typeof ListOrdersQuery>;

export const OrderPage = z.object({ data: z.array(OrderView).describe("Your orders on this page, newest first."), next_cursor: NextCursor });

export const AllotQuery = z.strictObject({
  id: PathId,
  units: z.coerce.number().min(0.001).max(1e12).optional().describe(UNITS),
  nav: z.coerce.number().min(0.0001).max(1e9).optional().describe(NAV),
  folio_no: z.string().trim().min(1).max(30).optional().describe(FOLIO_NO),
  allotment_date: IsoDate.optional().describe(ALLOTMENT_DATE),
});

export const InstallmentList = z.object({
  data: z
    .array(
      z.object({
        installment_no: z.number().int().describe(INSTALLMENT_NO),
        due_date: z.string().describe("When the installment is due (YYYY-MM-DD)."),
        amount: describeAfter(z.number().nullable(), AMOUNT),
        units: describeAfter(z.number().nullable(), UNITS),
        status: state(z.enum(INSTALLMENT_STATUSES)),
        order_id: z.string().nullable().describe("The installment's own order, once created on its due date."),
      }),
    )
    .describe("The installments, in schedule order."),
});

export const PauseOrderRequest = z.strictObject({
  id: PathId,
  installments: z.number().int().min(1).max(999).describe("How many installments to pause, from the next one not yet created: within the SIP master's pause minimum and maximum for the scheme, else 1 to 6."),
});

