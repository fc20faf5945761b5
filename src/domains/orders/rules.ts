import type { DetailReason, ErrorDetail } from "../../platform/lib/errors.js";
import { Decimal } from "../../platform/lib/money.js";
import { ORDER_TYPE, type DetailObject, type OrderType } from "./order-types.js";
import type { OrderStatus, PurchaseType } from "./order.states.js";
import type { PlacementAccount, PlacementScheme } from "./placement.repo.js";
import type { NominationStatus } from "../investors/consent.states.js";
import type { HoldingMode } from "../investors/investor.states.js";
import { exchangeModeOf } from "./exchange-code.js";

/**
 * The placement rules beyond the request's shape: the per-type rules the request schema delegates to
 * (typeRules), and the rules on what placement reads (the account and its investor, the SIP a top-up names,
 * a switch's or STP's target, the folio's holding). The exchange's rules on the scheme's codes (flags, limits,
 * the SIP master, targets, the mandate's validity) are split off into exchange-rules.ts, mutation-tested on
 * their own (npm run mutate:exchange-rules). orders.service.ts checkOrder reads the facts and applies both, in
 * the order the violations are reported.
 */

const BANK_ACCOUNT_BEING_REMOVED =
  "the bank account is being removed (the investor's change the exchange has not yet decided): name another of the investor's bank_accounts";

/** A violated rule: the field, a closed reason code, and a sentence. */
export type RuleViolation = ErrorDetail;

/** A violation of the request's own rules, its path as zod reports issues. */
export type RequestIssue = { path: Array<string | number>; reason: DetailReason; message: string };

/**
 * What the rules read of an order request: part of orders.schemas.ts PlaceOrderInput, declared here so that the
 * schema can call typeRules without the two files importing each other.
 */
export interface OrderRequest {
  order_type: OrderType;
  investor_id?: string;
  purchase_type?: PurchaseType;
  scheme_code?: string;
  folio_no?: string;
  amount?: number;
  units?: number;
  all_units?: boolean;
  bank_account_id?: string;
  mandate_id?: string;
  sip?: { frequency?: string; start_date?: string; installments?: number; installment_day?: number; sip_order_id?: string };
  stp?: { to_scheme_code: string };
  swp?: object;
  switch?: { to_scheme_code: string };
}

const DETAIL_OBJECTS = ["sip", "stp", "switch", "swp"] as const satisfies readonly DetailObject[];

/**
 * The per-type rules of the design, read from the order-type table: objects by type, required fields,
 * the quantity, and what a SIP's plan, a top-up and an additional purchase need.
 */
export function typeRules(order: OrderRequest): RequestIssue[] {
  const issues: RequestIssue[] = [];
  const add = (path: RequestIssue["path"], reason: DetailReason, message: string) => issues.push({ path, reason, message });
  const type = order.order_type;
  const traits = ORDER_TYPE[type];
  const need = (field: keyof OrderRequest) => {
    if (order[field] === undefined) add([field], "required", `is required for ${type}`);
  };
  const forbid = (field: keyof OrderRequest) => {
    if (order[field] !== undefined && order[field] !== false) add([field], "field_not_allowed", `is not used by ${type}`);
  };

  for (const object of DETAIL_OBJECTS) {
    if (order[object] !== undefined && traits.detailObject !== object) add([object], "field_not_allowed", `is not used by ${type}`);
  }
  if (!traits.topsUpSip) need("scheme_code");

  for (const field of traits.required) need(field);
  if (traits.quantity === "amount") {
    forbid("units");
    forbid("all_units");
  } else {
    const allowAll = traits.quantity === "amount_units_or_all";
    const given = [order.amount !== undefined, order.units !== undefined, allowAll && order.all_units === true].filter(Boolean).length;
    if (given !== 1) add([], "rule_violated", `${type} needs exactly one of amount, units${allowAll ? " or all_units: true" : ""}`);
    if (!allowAll) forbid("all_units");
  }
  if (traits.amountRule === "purchase" && order.purchase_type === "ADDITIONAL") need("folio_no");
  if (traits.sip) {
    for (const field of ["frequency", "start_date", "installments", "installment_day"] as const) {
      if (order.sip && order.sip[field] === undefined) add(["sip", field], "required", `is required for ${type}`);
    }
    if (order.sip?.sip_order_id) add(["sip", "sip_order_id"], "field_not_allowed", `is only for SIP_TOPUP`);
  }
  if (traits.mandate === "required") need("mandate_id");
  if (traits.topsUpSip && !order.sip?.sip_order_id) add(["sip", "sip_order_id"], "required", "is required for SIP_TOPUP");
  return issues;
}

/**
 * The request's amount (to the paisa) and units (3 decimals) as exact Decimals: from each JSON number's shortest
 * decimal form, as the client wrote it, never through float arithmetic; null when not given.
 */
export function requestedQuantity(order: Pick<OrderRequest, "amount" | "units">): { amount: Decimal | null; units: Decimal | null } {
  return {
    amount: order.amount === undefined ? null : new Decimal(order.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
    units: order.units === undefined ? null : new Decimal(order.units).toDecimalPlaces(3, Decimal.ROUND_HALF_UP),
  };
}

/** The account's investor: the one the request names (when it names one), REGISTERED, owning the bank account named. */
export function accountViolations(order: OrderRequest, account: PlacementAccount): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (order.investor_id && order.investor_id !== account.investorId) {
    out.push({ path: "investor_id", reason: "investor_mismatch", message: `is not the investor of ${account.id}: send that account's investor, or leave investor_id out` });
  }
  if (account.investor.status !== "REGISTERED") {
    out.push({
      path: "investment_account_id",
      reason: "investor_not_registered",
      message: `the investor is ${account.investor.status}; orders need a REGISTERED investor (wait for investor.registered)`,
    });
  }
  const named = order.bank_account_id ? account.investor.bankAccounts.find((b) => b.id === order.bank_account_id) : undefined;
  if (order.bank_account_id && !named) {
    out.push({ path: "bank_account_id", reason: "bank_account_not_found", message: "is not a bank account of the investor: use an id from the investor's bank_accounts" });
  }
  if (named?.beingRemoved) out.push({ path: "bank_account_id", reason: "rule_violated", message: BANK_ACCOUNT_BEING_REMOVED });
  return out;
}

/**
 * A new folio outside a demat account (a FRESH lump sum, a SIP or XSIP registration, PHYSICAL) needs the
 * investor's nominees or a confirmed opt-out (servicing.md, Nomination); demat holdings carry the depository's.
 */
export function nominationViolations(order: OrderRequest, holdingMode: HoldingMode | null, nomination: NominationStatus | null): RuleViolation[] {
  // null: an investor from before the rule whose status the worker has not derived yet; it is not refused on a guess.
  const opensFolio = (order.order_type === "LUMPSUM_PURCHASE" && order.purchase_type === "FRESH") || order.order_type === "SIP" || order.order_type === "XSIP";
  if (!opensFolio || nomination !== "NONE" || exchangeModeOf(holdingMode) === "DEMAT") return [];
  return [{
    path: "investment_account_id",
    reason: "nomination_required",
    message:
      "the investor has neither nominees nor an opt-out: add nominees (PATCH /api/investors/v1/{id} with `nominees`) or ask " +
      "the investor to opt out (POST /api/investors/v1/{id}/nomination-opt-out and send them the link)",
  }];
}

/** A top-up's SIP (the account's SIP or XSIP it names, or null when it has none such) must be ACCEPTED. */
export function topUpViolations(sip: { status: OrderStatus } | null): RuleViolation[] {
  if (sip?.status === "ACCEPTED") return [];
  return [{
    path: "sip.sip_order_id",
    reason: "sip_not_active",
    message: sip ? `the SIP is ${sip.status}; only an ACCEPTED SIP or XSIP can be topped up` : "is not a SIP or XSIP of this investment account: name one of its ACCEPTED SIPs or XSIPs",
  }];
}

/** A switch's or STP's target must be another scheme than `schemeCode`, the one it moves units out of. */
export function sameSchemeViolations(order: OrderRequest, schemeCode: string): RuleViolation[] {
  const target = order.switch?.to_scheme_code ?? order.stp?.to_scheme_code;
  if (target !== schemeCode) return [];
  return [{ path: order.switch ? "switch.to_scheme_code" : "stp.to_scheme_code", reason: "same_scheme", message: "must differ from scheme_code: name another scheme to move into" }];
}

/**
 * Where the holdings know the folio (the registrars reported it under the caller's ARN), a redemption or switch
 * cannot take more than it holds: units directly, an amount at the scheme's latest NAV. A folio the holdings do
 * not know (`held` null) is left to the exchange and the registrar to judge.
 */
export function holdingViolations(order: OrderRequest, scheme: Pick<PlacementScheme, "schemeCode" | "nav">, held: Decimal | null): RuleViolation[] {
  if (held === null) return [];
  const folio = `folio ${order.folio_no} holds ${held.toFixed(3)} units of ${scheme.schemeCode}`;
  if (held.isZero()) return [{ path: "folio_no", reason: "no_units_held", message: `${folio}: check the folio and the scheme` }];
  const { amount, units } = requestedQuantity(order);
  if (units && held.lessThan(units)) {
    return [{ path: "units", reason: "units_exceed_holding", message: `${folio}: ask for at most that, or all_units` }];
  }
  const worth = amount && scheme.nav ? held.times(scheme.nav.toString()) : null;
  if (worth && worth.lessThan(amount!)) {
    return [{ path: "amount", reason: "amount_exceeds_holding", message: `${folio}, worth ${worth.toFixed(2)} at NAV ${scheme.nav!.toFixed(4)}: ask for at most that, or all_units` }];
  }
  return [];
}
