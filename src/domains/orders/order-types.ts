/**
 * What each order type implies, in one table that every rule, move, schedule, view, payment decision
 * and the sandbox registrar read. A new order type is one new row here (and its request fields).
 */

export const ORDER_TYPES = ["LUMPSUM_PURCHASE", "REDEMPTION", "SWITCH", "SIP", "XSIP", "STP", "SWP", "SIP_TOPUP"] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** The request (and `details`) object that carries a type's specifics. */
export type DetailObject = "sip" | "stp" | "swp" | "switch";
/** The payment_status an order starts with: money to collect (UNPAID), or none (NOT_REQUIRED). */
export type InitialPaymentStatus = "UNPAID" | "NOT_REQUIRED";
/** Request fields the per-type rules name (the keys of the place-order request). */
type RequestField = "amount" | "purchase_type" | "folio_no" | "switch" | "sip" | "stp" | "swp" | "mandate_id";

export interface OrderTypeTraits {
  /** The one detail object the type takes (every other is refused); null: none. */
  detailObject: DetailObject | null;
  /** Fields the request must carry, in the order their absence is reported. */
  required: readonly RequestField[];
  /**
   * How the request gives the quantity: an amount only; exactly one of amount or units; or exactly one of
   * amount, units or all_units: true.
   */
  quantity: "amount" | "amount_or_units" | "amount_units_or_all";
  /** The payment_status it is placed with; a registration collects money through its installments instead. */
  payment: InitialPaymentStatus;
  /**
   * Units: `in` to the folio (purchases), `out` of it (redemptions, withdrawals), or `move` out of the
   * source scheme and into the target (`to_scheme_code`) at the target's NAV. The sandbox registrar
   * moves a folio's units this way, and the scheme master must allow purchases (`in`) or redemptions.
   */
  units: "in" | "out" | "move";
  /** A SIP (what a top-up names). */
  sip: boolean;
  /**
   * The exchange's limits an amount (or units) must meet: the scheme master's purchase limits (additional
   * minimum for ADDITIONAL and top-ups) or redemption limits, the SIP master's for a SIP registration, or
   * the SIP master's where it has a row for an STP's or SWP's plan (`transfer`); null: none checked.
   */
  amountRule: "purchase" | "sip" | "redemption" | "transfer" | null;
  /** Refused beyond the units the registrars report in the folio (placement). */
  checkedAgainstHolding: boolean;
  /**
   * A registration with installments: never allotted itself; on acceptance its schedule is written, and
   * each installment becomes a child order of the same type with this payment_status; `mandateDebit`:
   * the child is debited from the registration's mandate when created.
   */
  installments: { payment: InitialPaymentStatus; mandateDebit: boolean } | null;
  /**
   * Tops up a SIP: names an ACCEPTED SIP or XSIP of the account (`sip.sip_order_id`), whose scheme it
   * takes (no scheme_code) and whose mandate debits it unless another is named.
   */
  topsUpSip: boolean;
  /** The mandate: required (it debits every installment), or optional (a named mandate debits the order). */
  mandate: "required" | "optional";
}

export const ORDER_TYPE: Readonly<Record<OrderType, OrderTypeTraits>> = {
  LUMPSUM_PURCHASE: {
    detailObject: null, required: ["amount", "purchase_type"], quantity: "amount", payment: "UNPAID",
    units: "in", sip: false, amountRule: "purchase", checkedAgainstHolding: false, installments: null, mandate: "optional", topsUpSip: false,
  },
  REDEMPTION: {
    detailObject: null, required: ["folio_no"], quantity: "amount_units_or_all", payment: "NOT_REQUIRED",
    units: "out", sip: false, amountRule: "redemption", checkedAgainstHolding: true, installments: null, mandate: "optional", topsUpSip: false,
  },
  SWITCH: {
    detailObject: "switch", required: ["folio_no", "switch"], quantity: "amount_units_or_all", payment: "NOT_REQUIRED",
    units: "move", sip: false, amountRule: null, checkedAgainstHolding: true, installments: null, mandate: "optional", topsUpSip: false,
  },
  SIP: {
    detailObject: "sip", required: ["amount", "sip"], quantity: "amount", payment: "NOT_REQUIRED",
    units: "in", sip: true, amountRule: "sip", checkedAgainstHolding: false,
    installments: { payment: "UNPAID", mandateDebit: false }, mandate: "optional", topsUpSip: false,
  },
  XSIP: {
    detailObject: "sip", required: ["amount", "sip"], quantity: "amount", payment: "NOT_REQUIRED",
    units: "in", sip: true, amountRule: "sip", checkedAgainstHolding: false,
    installments: { payment: "UNPAID", mandateDebit: true }, mandate: "required", topsUpSip: false,
  },
  STP: {
    detailObject: "stp", required: ["folio_no", "amount", "stp"], quantity: "amount", payment: "NOT_REQUIRED",
    units: "move", sip: false, amountRule: "transfer", checkedAgainstHolding: false,
    installments: { payment: "NOT_REQUIRED", mandateDebit: false }, mandate: "optional", topsUpSip: false,
  },
  SWP: {
    detailObject: "swp", required: ["folio_no", "swp"], quantity: "amount_or_units", payment: "NOT_REQUIRED",
    units: "out", sip: false, amountRule: "transfer", checkedAgainstHolding: false,
    installments: { payment: "NOT_REQUIRED", mandateDebit: false }, mandate: "optional", topsUpSip: false,
  },
  SIP_TOPUP: {
    detailObject: "sip", required: ["amount"], quantity: "amount", payment: "UNPAID",
    units: "in", sip: false, amountRule: "purchase", checkedAgainstHolding: false, installments: null, mandate: "optional", topsUpSip: true,
  },
};

/**
 * The traits of a stored order's type. Every order was placed through the request schema, so a type
 * outside the table is a broken row, not a client's mistake.
 */
export function orderType(type: string): OrderTypeTraits {
  const traits = (ORDER_TYPE as Record<string, OrderTypeTraits | undefined>)[type];
  if (!traits) throw new Error(`Unknown order type ${type}`);
  return traits;
}

/** The types whose traits pass `test`, in table order. */
export function orderTypesWhere(test: (traits: OrderTypeTraits) => boolean): OrderType[] {
  return ORDER_TYPES.filter((type) => test(ORDER_TYPE[type]));
}

/** A SIP, XSIP, STP or SWP registration (not one of its installments): never allotted itself. */
export function isRegistration(order: { orderType: string; parentOrderId: string | null }): boolean {
  return orderType(order.orderType).installments !== null && order.parentOrderId === null;
}
