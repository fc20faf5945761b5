import type { OrderEntry } from "../port.js";
import { ExchangeUnavailableError } from "../port.js";
import { bseDate } from "./format.js";
import { DP_TXN, euinOf, unreadableAnswer, type Member, type OrderEntryAnswer } from "./order-entry.js";
import { rejectedOrder } from "./refusals.js";
import { providerRemark } from "./remarks.js";
import { BseSessionError, isSessionRefusal, type Session } from "./sessions.js";
import type { SoapParam } from "./soap.js";
import { internalRefOf } from "./trans-no-layout.js";

/**
 * SIP (sipOrderEntryParam, bse-starmf-orders.md §4a) and XSIP/ISIP (xsipOrderEntryParam, §4b)
 * registrations and their cancellations (CXL, naming the registration number), every element in the
 * document's order (the WSDL's names; the v3.1 fillers by analogy, open point 2). The installments are
 * the exchange's child orders (FirstOrderFlag N: the first one falls on the plan's first date, as our
 * schedule has it). A cancellation repeats the registration's fields (open point 6).
 */

export type PlanKind = "SIP" | "XSIP";
export const PLAN_OPERATION: Record<PlanKind, string> = { SIP: "sipOrderEntryParam", XSIP: "xsipOrderEntryParam" };

/** A registration's request as recorded (the session's elements left out): what its CXL repeats. */
export type PlanRequest = Array<[name: string, value: string | null]>;

/** Why the exchange cannot take this registration as it stands (before anything is sent), or null. */
export function planProblem(order: OrderEntry, kind: PlanKind): string | null {
  if (!order.plan) return "THE REGISTRATION HAS NO PLAN (FREQUENCY, START DATE, INSTALLMENTS)";
  if (!order.amount || !/^\d+(\.0+)?$/.test(order.amount)) return "THE EXCHANGE TAKES SIP INSTALLMENTS IN WHOLE RUPEES";
  if (kind === "XSIP" && !order.exchangeMandateId) return "THE MANDATE HAS NO EXCHANGE MANDATE ID YET";
  return null;
}

/** The plan's first installment date (DD/MM/YYYY): the installment day on or after the start date, clamped to the month. */
export function firstInstallmentDate(plan: NonNullable<OrderEntry["plan"]>): string {
  const [y, m, d] = plan.startDate.split("-").map(Number) as [number, number, number];
  let date = new Date(Date.UTC(y, m - 1, d));
  if (plan.frequency !== "WEEKLY" && plan.installmentDay) {
    const clamp = (year: number, month: number) => Math.min(plan.installmentDay!, new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
    date = clamp(y, m - 1) >= d ? new Date(Date.UTC(y, m - 1, clamp(y, m - 1))) : new Date(Date.UTC(y, m, clamp(y, m)));
  }
  return bseDate("plan.startDate", date.toISOString().slice(0, 10));
}

/** An ISIP mandate id: 15 characters starting with BSE (services §2.1); shorter ones are XSIP mandate ids. */
const isIsipMandate = (id: string) => /^BSE\w{12}$/.test(id.replace(/\s/g, ""));

/** The registration's request (without the session's Password and PassKey), in the document's order. */
export function planRequest(order: OrderEntry, kind: PlanKind, transNo: string, member: Member): PlanRequest {
  const plan = order.plan!;
  const dpTxn = DP_TXN[order.holdingMode ?? "PHYSICAL"];
  const mandate = order.exchangeMandateId ?? "";
  const common: PlanRequest = [
    ["TransactionCode", "NEW"],
    ["UniqueRefNo", transNo],
    ["SchemeCode", order.schemeCode],
    ["MemberCode", member.memberId],
    ["ClientCode", order.clientCode],
    [kind === "SIP" ? "UserID" : "UserId", member.userId],
    ["InternalRefNo", internalRefOf(transNo)],
    ["TransMode", dpTxn === "P" ? "P" : "D"],
    ["DpTxnMode", dpTxn],
    ["StartDate", firstInstallmentDate(plan)],
    ["FrequencyType", plan.frequency],
    ["FrequencyAllowed", "1"],
    ["InstallmentAmount", order.amount!.replace(/\.0+$/, "")],
    ["NoOfInstallment", String(plan.installments)],
    ["Remarks", order.remarks ? order.remarks.slice(0, 100) : null],
    ["FolioNo", dpTxn === "P" ? order.folioNo : null],
    ["FirstOrderFlag", "N"],
  ];
  const euin: PlanRequest = [
    ["Euin", euinOf(order, member)],
    ["EuinVal", order.euinDeclared ? "Y" : "N"],
    ["DPC", "Y"],
  ];
  const fillers: PlanRequest = [1, 2, 3, 4, 5, 6].map((n) => [`Filler${n}`, null]);
  if (kind === "SIP") {
    return [...common, ["SubberCode", null], ...euin, ["RegId", null], ["IPAdd", null], ["Param1", order.subBrokerArn], ["Param2", null], ["Param3", null], ...fillers];
  }
  return [
    ...common,
    ["Brokerage", null],
    ["MandateID", isIsipMandate(mandate) ? null : mandate],
    ["SubberCode", null],
    ...euin,
    ["XsipRegID", null],
    ["IPAdd", null],
    ["Param1", order.subBrokerArn],
    ["Param2", isIsipMandate(mandate) ? mandate.replace(/\s/g, "") : null],
    ["Param3", null],
    ...fillers,
  ];
}

/** The cancellation of a registration: its request again, as CXL under a new reference, naming the registration number. */
export function cancelRequest(registration: PlanRequest, kind: PlanKind, registrationNo: string, transNo: string): PlanRequest {
  const regField = kind === "SIP" ? "RegId" : "XsipRegID";
  return registration.map(([name, value]): [string, string | null] => {
    if (name === "TransactionCode") return [name, "CXL"];
    if (name === "UniqueRefNo") return [name, transNo];
    if (name === "InternalRefNo") return [name, internalRefOf(transNo)];
    if (name === regField) return [name, registrationNo];
    return [name, value];
  });
}

/** The request with the session's elements in their place (after IPAdd). */
export function withSession(request: PlanRequest, session: Session): SoapParam[] {
  const at = request.findIndex(([name]) => name === "IPAdd") + 1;
  return [...request.slice(0, at), ["Password", session.encryptedPassword], ["PassKey", session.passKey], ...request.slice(at)];
}

/**
 * Reads `TransCode|UniqueRefNo|MemberId|ClientCode|UserId|RegId|remark|flag[|first order no]`: flag 0 is
 * accepted with the registration number (a cancellation's may be blank), 1 rejected with the remark.
 */
export function readPlanAnswer(operation: string, result: string, transNo: string, cancellation: boolean): OrderEntryAnswer {
  const fields = result.split("|").map((f) => f.trim());
  if (fields.length < 8) throw unreadableAnswer(operation, result, fields.length);
  const flagAt = fields.length >= 9 && (fields.at(-2) === "0" || fields.at(-2) === "1") ? fields.length - 2 : fields.length - 1;
  const flag = fields[flagAt]!;
  const remark = fields.slice(6, flagAt).join("|");
  if (flag === "1" && isSessionRefusal(remark)) throw new BseSessionError(remark);
  if (fields[1] !== transNo) throw new ExchangeUnavailableError(`BSE ${operation}: the answer is for another reference`);
  const regNo = /^[1-9]\d*$/.test(fields[5]!) ? fields[5]! : null;
  if (flag === "0") {
    if (!regNo && !cancellation) throw new ExchangeUnavailableError(`BSE ${operation}: registered without a registration number`);
    return { status: "ACCEPTED", exchangeOrderNumber: regNo ?? "", remark: providerRemark(remark) };
  }
  if (flag === "1") return rejectedOrder(operation, remark, regNo);
  throw new ExchangeUnavailableError(`BSE ${operation}: unexpected success flag`);
}
