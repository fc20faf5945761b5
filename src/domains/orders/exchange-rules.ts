import { ORDER_TYPE } from "./order-types.js";
import type { PlaceOrderInput } from "./orders.schemas.js";
import type { PlacementCode, PlacementScheme, PlacementSipRule } from "./placement.repo.js";
import type { DetailReason } from "../../platform/lib/errors.js";
import type { HoldingMode } from "../investors/investor.states.js";
import type { Decimal } from "../../platform/lib/money.js";
import { allowedFlag, chooseExchangeCode, noCodeMessage } from "./exchange-code.js";
import { requestedQuantity, type RuleViolation } from "./rules.js";
import { installmentDates } from "./schedule.js";

/**
 * The exchange's placement rules on the scheme's codes (exchange-masters.md), the part of the placement rules
 * (rules.ts) that npm run mutate:exchange-rules mutates: the code an order names, its flags and limits, the
 * SIP master's rows, a target's code, and an XSIP's dates within its mandate.
 */

export const schemeNotFound = (code: string | undefined) => `no scheme ${code} in the scheme master: find its code with GET /api/masters/v1/schemes`;
export const notAllowed = (code: string, what: string, flag: string) => `exchange code ${code} does not accept ${what}: choose a scheme whose exchange code has ${flag}`;

const FLAG_REFUSAL: Record<ReturnType<typeof allowedFlag>, { reason: DetailReason; what: string; flag: string }> = {
  purchaseAllowed: { reason: "purchase_not_allowed", what: "purchases", flag: "purchase_allowed" },
  redemptionAllowed: { reason: "redemption_not_allowed", what: "redemptions", flag: "redemption_allowed" },
  sipAllowed: { reason: "sip_not_allowed", what: "SIPs", flag: "sip_allowed" },
  stpAllowed: { reason: "stp_not_allowed", what: "STPs", flag: "stp_allowed" },
  swpAllowed: { reason: "swp_not_allowed", what: "SWPs", flag: "swp_allowed" },
  switchAllowed: { reason: "switch_not_allowed", what: "switches", flag: "switch_allowed" },
};

/** The exchange code an order (or its target) resolved to, or the violations that say why none did. */
export type CodeResolution = { code: PlacementCode; violations: RuleViolation[] } | { code: null; violations: RuleViolation[] };

/**
 * The exchange's rules for an order in its scheme (exchange-masters.md): the code for the holding mode
 * (scheme_not_tradable when none takes orders today), the code's flag for the order type, and its limits:
 * purchase minimum (additional for ADDITIONAL and top-ups), maximum and multiple; a redemption's amount or
 * units minimum, maximum and multiple (all_units is exempt); a SIP's frequency, date, amount and number of
 * installments by the SIP master; an STP's or SWP's amount by the SIP master where it has a row.
 */
export function exchangeViolations(
  order: PlaceOrderInput,
  scheme: PlacementScheme | null,
  holdingMode: HoldingMode | null,
  today: string,
  amountPath = "amount",
): CodeResolution {
  if (!scheme) return { code: null, violations: [{ path: "scheme_code", reason: "scheme_not_found", message: schemeNotFound(order.scheme_code) }] };
  const code = chooseExchangeCode(scheme.codes, { holdingMode, orderType: order.order_type, preferredIsin: scheme.isinGrowth ?? scheme.isinReinvestment }, today);
  if (!code) return { code: null, violations: [{ path: "scheme_code", reason: "scheme_not_tradable", message: noCodeMessage(scheme.schemeCode, scheme.codes, holdingMode, today) }] };
  const out: RuleViolation[] = [];
  const flag = allowedFlag(order.order_type);
  if (!code[flag]) {
    const refusal = FLAG_REFUSAL[flag];
    out.push({ path: "scheme_code", reason: refusal.reason, message: notAllowed(code.code, refusal.what, refusal.flag) });
  }
  const traits = ORDER_TYPE[order.order_type];
  const { amount, units } = requestedQuantity(order);
  const rule = traits.amountRule;
  if (rule === "purchase" && amount) {
    const additional = order.purchase_type === "ADDITIONAL" || traits.topsUpSip;
    const minimum = additional ? (code.minAdditionalAmount ?? code.minPurchaseAmount) : code.minPurchaseAmount;
    out.push(...limitViolations(amountPath, amount, { minimum, maximum: code.maxPurchaseAmount, multiple: code.purchaseMultiple }, `exchange code ${code.code}`, "amount"));
  }
  if (rule === "redemption" && !order.all_units) {
    if (amount) out.push(...limitViolations(amountPath, amount, { minimum: code.minRedemptionAmount, maximum: code.maxRedemptionAmount, multiple: code.redemptionAmountMultiple }, `exchange code ${code.code}`, "amount"));
    if (units) {
      out.push(...limitViolations("units", units, { minimum: code.minRedemptionUnits, maximum: code.maxRedemptionUnits, multiple: code.redemptionUnitsMultiple }, `exchange code ${code.code}`, "units"));
    }
  }
  if (rule === "sip" || rule === "transfer") {
    out.push(...planViolations(order, code, amount, rule === "sip", amountPath, today));
  }
  return { code, violations: out };
}

/** The plan's frequency, day, amount and installments against the SIP master rows of the code. */
function planViolations(order: PlaceOrderInput, code: PlacementCode, amount: Decimal | null, registration: boolean, amountPath: string, today: string): RuleViolation[] {
  const plan = order.sip ?? order.stp ?? order.swp;
  if (!plan?.frequency) return [];
  const frequency = plan.frequency;
  const rules = code.sipRules.filter((r) => r.active);
  const rule = rules.find((r) => r.frequency === frequency);
  const object = order.sip ? "sip" : order.stp ? "stp" : "swp";
  if (!rule) {
    // A registration needs a row; an STP's or SWP's amount is checked only where the master has one.
    if (!registration) return [];
    const offered = rules.map((r) => r.frequency);
    return [{
      path: `${object}.frequency`,
      reason: "sip_frequency_not_allowed",
      message: offered.length === 0
        ? `the exchange's SIP master offers no frequency for exchange code ${code.code}`
        : `exchange code ${code.code} takes ${offered.join(", ")} SIPs only`,
    }];
  }
  const out: RuleViolation[] = [];
  if (registration && order.sip?.installment_day !== undefined && !rule.dates.includes(order.sip.installment_day)) {
    out.push({ path: "sip.installment_day", reason: "sip_date_not_allowed", message: `exchange code ${code.code} takes ${frequency} installments on days ${rule.dates.join(", ")} only` });
  }
  if (amount) out.push(...limitViolations(amountPath, amount, { minimum: rule.minAmount, maximum: rule.maxAmount, multiple: rule.multiple }, `${frequency} plans of exchange code ${code.code}`, "amount"));
  const installments = "installments" in plan ? plan.installments : undefined;
  // Stryker disable next-line ConditionalExpression: undefined is neither below nor above any bound; the test is the type's guard
  if (registration && installments !== undefined) {
    const min = rule.minInstallments;
    const max = rule.maxInstallments;
    if ((min !== null && installments < min) || (max !== null && installments > max)) {
      const range = min !== null && max !== null ? `between ${min} and ${max}` : min !== null ? `at least ${min}` : `at most ${max}`;
      out.push({ path: `${object}.installments`, reason: "installments_out_of_range", message: `must be ${range} for ${frequency} plans of exchange code ${code.code}` });
    }
  }
  if (registration && order.sip) out.push(...gapViolations(order.sip, rule, code.code, today));
  return out;
}

const DAY_MS = 86_400_000;
const dayNumber = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS;
const dayAfter = (isoDay: string, days: number) => new Date((dayNumber(isoDay) + days) * DAY_MS).toISOString().slice(0, 10);

/**
 * The SIP master's gap between registration (today, India) and the first installment: at least `minGapDays`
 * (the exchange needs the time to register the plan with the registrar) and at most `maxGapDays`.
 */
function gapViolations(sip: NonNullable<PlaceOrderInput["sip"]>, rule: PlacementSipRule, code: string, today: string): RuleViolation[] {
  if (!sip.frequency || !sip.start_date || sip.installment_day === undefined) return [];
  const [first] = installmentDates({ frequency: sip.frequency, startDate: sip.start_date, installments: 1, installmentDay: sip.installment_day });
  const gap = dayNumber(first!) - dayNumber(today);
  if (rule.minGapDays !== null && gap < rule.minGapDays) {
    return [{
      path: "sip.start_date",
      reason: "sip_start_too_soon",
      message: `the first installment falls on ${first}, ${gap} days from today; exchange code ${code} needs at least ${rule.minGapDays} (a first installment on or after ${dayAfter(today, rule.minGapDays)})`,
    }];
  }
  if (rule.maxGapDays !== null && gap > rule.maxGapDays) {
    return [{
      path: "sip.start_date",
      reason: "sip_start_too_late",
      message: `the first installment falls on ${first}, ${gap} days from today; exchange code ${code} takes at most ${rule.maxGapDays} (a first installment on or before ${dayAfter(today, rule.maxGapDays)})`,
    }];
  }
  return [];
}

const REASONS = {
  amount: { below: "amount_below_minimum", above: "amount_above_maximum", step: "amount_not_multiple" },
  units: { below: "units_below_minimum", above: "units_above_maximum", step: "units_not_multiple" },
} as const satisfies Record<string, Record<string, DetailReason>>;

/** A quantity against a minimum, maximum and multiple (exact decimals); every limit named in each message, so one correction meets all. */
function limitViolations(
  path: string,
  value: Decimal,
  limits: { minimum: Decimal | null; maximum: Decimal | null; multiple: Decimal | null },
  of: string,
  kind: keyof typeof REASONS,
): RuleViolation[] {
  const { minimum, maximum } = limits;
  const multiple = limits.multiple && !limits.multiple.isZero() ? limits.multiple : null;
  const terms = [minimum && `minimum ${minimum.toString()}`, maximum && `maximum ${maximum.toString()}`, multiple && `multiples of ${multiple.toString()}`].filter(Boolean).join(", ");
  const out: RuleViolation[] = [];
  const reasons = REASONS[kind];
  if (minimum && value.lessThan(minimum)) out.push({ path, reason: reasons.below, message: `must be at least ${minimum.toString()} for ${of} (${terms})` });
  if (maximum && value.greaterThan(maximum)) out.push({ path, reason: reasons.above, message: `must be at most ${maximum.toString()} for ${of} (${terms})` });
  if (multiple && !value.mod(multiple).isZero()) out.push({ path, reason: reasons.step, message: `must be a multiple of ${multiple.toString()} for ${of} (${terms})` });
  return out;
}

/**
 * A switch's or STP's target: its exchange code for the same holding mode, which must take purchases and
 * the switch (or STP) into it.
 */
export function targetViolations(
  order: PlaceOrderInput,
  target: PlacementScheme | null,
  targetCode: string,
  holdingMode: HoldingMode | null,
  today: string,
): CodeResolution {
  const path = order.switch ? "switch.to_scheme_code" : "stp.to_scheme_code";
  if (!target) return { code: null, violations: [{ path, reason: "scheme_not_found", message: schemeNotFound(targetCode) }] };
  const code = chooseExchangeCode(target.codes, { holdingMode, orderType: order.order_type, side: "into", preferredIsin: target.isinGrowth ?? target.isinReinvestment }, today);
  if (!code) return { code: null, violations: [{ path, reason: "scheme_not_tradable", message: noCodeMessage(target.schemeCode, target.codes, holdingMode, today) }] };
  const out: RuleViolation[] = [];
  if (!code.purchaseAllowed) out.push({ path, reason: "purchase_not_allowed", message: notAllowed(code.code, "purchases", "purchase_allowed") });
  // Stryker disable next-line StringLiteral: only switches and STPs have a target, and their flag into a code is the one out of it
  const into = allowedFlag(order.order_type, "into");
  if (!code[into]) {
    const refusal = FLAG_REFUSAL[into];
    out.push({ path, reason: refusal.reason, message: notAllowed(code.code, refusal.what, refusal.flag) });
  }
  return { code, violations: out };
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
