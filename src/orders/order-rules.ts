import type { ErrorDetail } from "../lib/errors.js";
import { ORDER_TYPE } from "./order-types.js";
import type { PlaceOrderInput } from "./orders.schemas.js";
import type { PlacementScheme } from "./orders.repo.js";
import { installmentDates } from "./schedule.js";

type Scheme = PlacementScheme;

/** A violated rule: the field, a closed reason code, and a sentence. */
export type RuleViolation = ErrorDetail;

const cents = (value: number) => Math.round(value * 100);
const decimalCents = (value: { toNumber(): number } | null) => (value === null ? null : cents(value.toNumber()));

export const schemeNotFound = (code: string | undefined) => `no scheme ${code} in the scheme master: find its code with GET /api/masters/v1/schemes`;
export const notAllowed = (code: string, what: string, flag: string) => `scheme ${code} does not accept ${what}: choose a scheme whose ${flag} is true`;

/** The scheme master's rules for an order: scheme allowed for the order type, minimums and multiples. */
export function schemeViolations(order: PlaceOrderInput, scheme: Scheme | null, amountPath = "amount"): RuleViolation[] {
  if (!scheme) return [{ path: "scheme_code", reason: "scheme_not_found", message: schemeNotFound(order.scheme_code) }];
  const out: RuleViolation[] = [];
  const traits = ORDER_TYPE[order.order_type];
  if (traits.units === "in" && !scheme.purchaseAllowed) {
    out.push({ path: "scheme_code", reason: "purchase_not_allowed", message: notAllowed(scheme.schemeCode, "purchases", "purchase_allowed") });
  }
  if (traits.sip && !scheme.sipAllowed) {
    out.push({ path: "scheme_code", reason: "sip_not_allowed", message: notAllowed(scheme.schemeCode, "SIPs", "sip_allowed") });
  }
  if (traits.units !== "in" && !scheme.redemptionAllowed) {
    out.push({ path: "scheme_code", reason: "redemption_not_allowed", message: notAllowed(scheme.schemeCode, "redemptions", "redemption_allowed") });
  }
  if (order.amount === undefined) return out;

  const [minimum, multiple] =
    traits.amountRule === "purchase"
      ? order.purchase_type === "ADDITIONAL"
        ? [scheme.minAdditionalAmount, scheme.purchaseMultiple]
        : [scheme.minPurchaseAmount, scheme.purchaseMultiple]
      : traits.amountRule === "sip"
        ? [scheme.minSipAmount, scheme.sipMultiple]
        : traits.amountRule === "redemption"
          ? [scheme.minRedemptionAmount, null]
          : [null, null];
  const amount = cents(order.amount);
  const min = decimalCents(minimum);
  const step = decimalCents(multiple) || null;
  // Both rules in every message, so one correction satisfies both.
  const terms = [min !== null ? `minimum ${min / 100}` : "", step !== null ? `multiples of ${step / 100}` : ""].filter(Boolean).join(", ");
  if (min !== null && amount < min) {
    out.push({ path: amountPath, reason: "amount_below_minimum", message: `must be at least ${min / 100} for scheme ${scheme.schemeCode} (${terms})` });
  }
  if (step !== null && amount % step !== 0) {
    out.push({ path: amountPath, reason: "amount_not_multiple", message: `must be a multiple of ${step / 100} for scheme ${scheme.schemeCode} (${terms})` });
  }
  return out;
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * An XSIP's installments are debited by its mandate, so every installment date must fall within the
 * mandate's validity: the plan starts on or after the mandate's start date and, when the mandate has an
 * end date, its last installment falls on or before it.
 */
export function mandateValidityViolations(order: PlaceOrderInput, mandate: { startDate: Date; endDate: Date | null }): RuleViolation[] {
  const sip = order.sip;
  if (!ORDER_TYPE[order.order_type].installments?.mandateDebit || !sip?.frequency || !sip.start_date || !sip.installments || !sip.installment_day) return [];
  const start = isoDate(mandate.startDate);
  const end = mandate.endDate ? isoDate(mandate.endDate) : null;
  if (sip.start_date < start) {
    return [{ path: "sip.start_date", reason: "before_mandate_start", message: `must be on or after the mandate's start date ${start}` }];
  }
  if (end === null) return [];
  if (sip.start_date > end) {
    return [{ path: "sip.start_date", reason: "after_mandate_end", message: `must be on or before the mandate's end date ${end}` }];
  }
  const dates = installmentDates({ frequency: sip.frequency, startDate: sip.start_date, installments: sip.installments, installmentDay: sip.installment_day });
  const fitting = dates.filter((date) => date <= end).length;
  if (fitting === dates.length) return [];
  return [{
    path: "sip.installments",
    reason: "beyond_mandate_end",
    message: `installment ${fitting + 1} falls on ${dates[fitting]}, after the mandate's end date ${end} (at most ${fitting} fit)`,
  }];
}
