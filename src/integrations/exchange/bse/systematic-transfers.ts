import type { OrderEntry } from "../port.js";
import { ExchangeUnavailableError } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG, swpCancellationParam, swpRegistrationParam, type MfapiResult, type SwpRegistration } from "./mfapi-params.js";
import type { Member, OrderEntryAnswer } from "./order-entry.js";
import { euinOf } from "./order-entry.js";
import { rejectedOrder } from "./refusals.js";
import { providerRemark } from "./remarks.js";
import { buildStpRequest, readStpResponse, type StpRegistration } from "./stp-request.js";
import { indianMobile } from "./ucc-param.js";

/**
 * STP (the enhanced STP JSON API, bse-starmf-services.md §5, product EXCH) and SWP (MFAPI flags 08 and
 * 10, §2.2-2.3) registrations and their cancellations. Neither carries our TransNo: the registration's
 * TransNo (bse_order_refs) names it for us, and its 10-character internal reference goes as IntRefNo /
 * Internal Ref Number. What a cancellation needs is recorded with the registration (never the investor's
 * mobile, e-mail or bank account).
 */

export const STP_PATH = "/starmfapi/api/stp/stpregistration";
/** The document says "API KEY" without naming the header; MandateShift's `APIKey` is the exchange's spelling elsewhere (UAT open point). */
export const STP_API_KEY_HEADER = "APIKey";

/** What an STP or SWP registration records for its cancellation. */
export type StpRecord = Omit<StpRegistration, "mobile" | "email">;
export interface SwpRecord {
  clientCode: string;
}

/** Why this STP or SWP cannot go to the exchange as it stands (before anything is sent), or null (an SWP's payout account: orders.ts). */
export function transferProblem(order: OrderEntry): string | null {
  if (!order.plan) return "THE REGISTRATION HAS NO PLAN (FREQUENCY, START DATE, INSTALLMENTS)";
  if (!order.folioNo) return "THE EXCHANGE TAKES STP AND SWP ON AN EXISTING FOLIO ONLY";
  if (order.orderType === "STP" && !order.toSchemeCode) return "THE STP HAS NO TARGET SCHEME";
  if (!order.amount && !order.units) return "THE REGISTRATION HAS NEITHER AN AMOUNT NOR UNITS";
  return null;
}

/** What an STP records for its cancellation: its registration without the investor's contact. */
export function stpRecordOf(stp: StpRegistration): StpRecord {
  const { mobile: _mobile, email: _email, ...record } = stp;
  return record;
}

export function stpRegistrationOf(order: OrderEntry, internalRef: string, member: Member): StpRegistration {
  const plan = order.plan!;
  return {
    clientCode: order.clientCode,
    fromSchemeCode: order.schemeCode,
    toSchemeCode: order.toSchemeCode ?? "",
    purchaseType: order.purchaseType ?? "FRESH",
    folioNo: order.folioNo ?? "",
    internalRef,
    startDate: plan.startDate,
    frequency: plan.frequency,
    transfers: plan.installments,
    endDate: null,
    amount: order.amount ?? "",
    ...sharedPlanFields(order, member),
  };
}

/** A 10-digit Indian mobile for the exchange's verification field; an international number is not sent (the field is optional). */
const verificationMobile = (order: OrderEntry) => (order.contact ? indianMobile(order.contact.mobile) : null);

/** What an STP and an SWP registration carry alike: the distributor's EUIN and sub-broker, remarks, the investor's contact. */
function sharedPlanFields(order: OrderEntry, member: Member) {
  return {
    firstOrderToday: false,
    euin: euinOf(order, member),
    euinDeclared: order.euinDeclared,
    remarks: order.remarks ? order.remarks.slice(0, 100) : null,
    subBrokerArn: order.subBrokerArn,
    mobile: verificationMobile(order),
    email: order.contact?.email ?? null,
  };
}

export function swpRegistrationOf(order: OrderEntry, internalRef: string, member: Member): SwpRegistration {
  const plan = order.plan!;
  return {
    clientCode: order.clientCode,
    schemeCode: order.schemeCode,
    transactionMode: (order.holdingMode ?? "PHYSICAL") === "PHYSICAL" ? "P" : "D",
    folioNo: order.folioNo ?? "",
    internalRef,
    startDate: plan.startDate,
    installments: plan.installments,
    frequency: plan.frequency,
    amount: order.amount,
    units: order.amount ? null : order.units,
    ...sharedPlanFields(order, member),
    bankAccountNumber: order.payoutAccountNumber ?? "",
  };
}

const credentials = (ctx: BseContext) => ({ userId: ctx.config.userId, memberCode: ctx.config.memberId, password: ctx.config.password });

/** Builds every field now (a field the exchange cannot take is a BseMappingError, before anything is sent). */
export function checkStp(ctx: BseContext, stp: StpRegistration): void {
  buildStpRequest(credentials(ctx), stp, { transType: "NEW" });
}

/** NEW, or CXL naming the registration: ACCEPTED with the registration number, or REJECTED with the exchange's remark. */
export async function sendStp(
  ctx: BseContext,
  stp: StpRegistration,
  action: { transType: "NEW" } | { transType: "CXL"; registrationNo: string },
): Promise<OrderEntryAnswer> {
  const body = buildStpRequest(credentials(ctx), stp, action);
  const outcome = readStpResponse(await ctx.transport.json("STP registration", STP_PATH, body, { [STP_API_KEY_HEADER]: ctx.config.apiKey }));
  if (!outcome.ok) return rejectedOrder(action.transType === "CXL" ? "STP cancellation" : "STP registration", outcome.remark, null, ctx.log);
  if (action.transType === "NEW" && !outcome.registrationNo) throw new ExchangeUnavailableError("BSE STP registration: registered without a registration number");
  return { status: "ACCEPTED", exchangeOrderNumber: action.transType === "CXL" ? action.registrationNo : outcome.registrationNo!, remark: providerRemark(outcome.remark) };
}

export function checkSwp(swp: SwpRegistration): void {
  swpRegistrationParam(swp);
}

export async function sendSwp(ctx: BseContext, swp: SwpRegistration): Promise<OrderEntryAnswer> {
  const result = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.swpRegistration, swpRegistrationParam(swp));
  const answer = swpAnswer(ctx, "SWP registration", result);
  if (answer.status === "ACCEPTED") {
    const registrationNo = swpRegistrationNoFrom(result.message);
    if (!registrationNo) throw new ExchangeUnavailableError("BSE SWP registration: registered without a registration number");
    return { ...answer, exchangeOrderNumber: registrationNo };
  }
  return answer;
}

export async function cancelSwp(ctx: BseContext, record: SwpRecord, registrationNo: string): Promise<OrderEntryAnswer> {
  const param = swpCancellationParam({ registrationNo, clientCode: record.clientCode, remarks: null });
  const answer = swpAnswer(ctx, "SWP cancellation", await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.swpCancellation, param));
  return answer.status === "ACCEPTED" ? { ...answer, exchangeOrderNumber: registrationNo } : answer;
}

/** `100|message`: accepted; `101|reason`: a refusal with the exchange's remark (a refused login is unavailable: refusals.ts). */
function swpAnswer(ctx: BseContext, label: string, result: MfapiResult): OrderEntryAnswer {
  if (result.ok) return { status: "ACCEPTED", exchangeOrderNumber: "", remark: providerRemark(result.message) };
  return rejectedOrder(label, result.message, null, ctx.log);
}

/** Flag 08's success message: the document gives no sample; the registration number is taken as its last run of digits (UAT open point). */
export function swpRegistrationNoFrom(message: string): string | null {
  const digits = message.match(/\d+/g);
  return digits ? digits[digits.length - 1]! : null;
}
