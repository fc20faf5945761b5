import { fieldProblem, readFields, type FieldSpec } from "./fields.js";
import type { DoubleOrderEntry } from "./order-entry.js";
import type { DoubleServer } from "./server.js";
import { ORDER_ACTION, ORDER_PATH, type Credentials, type DoubleSessions } from "./sessions.js";

/**
 * switchOrderEntryParam, sipOrderEntryParam and xsipOrderEntryParam as the exchange takes them
 * (bse-starmf-orders.md §4a, 4b, 4d): element names and order (the WSDL's, v3.1 fillers by analogy),
 * mandatory fields, lengths and codes, the session, the TransNo; a SIP/XSIP CXL must name a live
 * registration of the same client. A switch books two orders (switch-out R, switch-in P) that the reports
 * show; a registration is kept with its number.
 */

const YN = ["Y", "N"] as const;
const AMOUNT = /^\d{1,11}(\.\d{1,2})?$/;
const UNITS = /^\d{1,8}(\.\d{1,3})?$/;
const DATE = /^\d{2}\/\d{2}\/\d{4}$/;
const fillers = (max: number): FieldSpec[] => [1, 2, 3, 4, 5, 6].map((n) => ({ name: `Filler${n}`, max }));

export const SWITCH_FIELDS: readonly FieldSpec[] = [
  { name: "TransCode", max: 3, mandatory: true, values: ["NEW"] },
  { name: "TransNo", max: 19, mandatory: true },
  { name: "OrderId", max: 8, pattern: /^\d+$/ },
  { name: "UserId", max: 10, mandatory: true, pattern: /^\d+$/ },
  { name: "MemberId", max: 20, mandatory: true },
  { name: "ClientCode", max: 20, mandatory: true },
  { name: "FromSchemeCd", max: 20, mandatory: true },
  { name: "ToSchemeCd", max: 21, mandatory: true },
  { name: "BuySell", max: 2, mandatory: true, values: ["SO", "SI"] },
  { name: "BuySellType", max: 10, mandatory: true, values: ["FRESH", "ADDITIONAL"] },
  { name: "DPTxn", max: 10, mandatory: true, values: ["C", "N", "P"] },
  { name: "OrderVal", max: 14, pattern: AMOUNT },
  { name: "SwitchUnits", max: 12, pattern: UNITS },
  { name: "AllUnitsFlag", max: 1, mandatory: true, values: YN },
  { name: "FolioNo", max: 20 },
  { name: "Remarks", max: 255 },
  { name: "KYCStatus", max: 1, values: YN },
  { name: "SubBrCode", max: 20 },
  { name: "EUIN", max: 20, pattern: /^E\d{6}$/ },
  { name: "EUINVal", max: 2, mandatory: true, values: YN },
  { name: "MinRedeem", max: 1, mandatory: true, values: YN },
  { name: "IPAdd", max: 20 },
  { name: "Password", max: 250, mandatory: true },
  { name: "PassKey", max: 10 },
  { name: "Parma1", max: 20 },
  { name: "Param2", max: 10, pattern: /^[6-9]\d{9}$/ },
  { name: "Param3", max: 50 },
  ...fillers(30),
];

const PLAN_HEAD = (userIdName: string): FieldSpec[] => [
  { name: "TransactionCode", max: 3, mandatory: true, values: ["NEW", "CXL"] },
  { name: "UniqueRefNo", max: 19, mandatory: true },
  { name: "SchemeCode", max: 20, mandatory: true },
  { name: "MemberCode", max: 20, mandatory: true },
  { name: "ClientCode", max: 20, mandatory: true },
  { name: userIdName, max: 10, mandatory: true, pattern: /^\d+$/ },
  { name: "InternalRefNo", max: 25 },
  { name: "TransMode", max: 2, mandatory: true, values: ["D", "P"] },
  { name: "DpTxnMode", max: 1, mandatory: true, values: ["C", "N", "P"] },
  { name: "StartDate", max: 10, mandatory: userIdName === "UserID", pattern: DATE },
  { name: "FrequencyType", max: 20, mandatory: true, values: ["MONTHLY", "QUARTERLY", "WEEKLY"] },
  { name: "FrequencyAllowed", max: 1, mandatory: true, values: ["1"] },
  { name: "InstallmentAmount", max: 8, mandatory: true, pattern: /^\d+$/ },
  { name: "NoOfInstallment", max: 4, mandatory: true, pattern: /^\d+$/ },
  { name: "Remarks", max: 100 },
  { name: "FolioNo", max: 20 },
  { name: "FirstOrderFlag", max: 1, mandatory: true, values: YN },
];
const EUIN: FieldSpec[] = [
  { name: "Euin", max: 20, pattern: /^E\d{6}$/ },
  { name: "EuinVal", max: 1, mandatory: true, values: YN },
  { name: "DPC", max: 1, mandatory: true, values: ["Y"] },
];

export const SIP_FIELDS: readonly FieldSpec[] = [
  ...PLAN_HEAD("UserID"),
  { name: "SubberCode", max: 15 },
  ...EUIN,
  { name: "RegId", max: 10, pattern: /^\d+$/ },
  { name: "IPAdd", max: 20 },
  { name: "Password", max: 250, mandatory: true },
  { name: "PassKey", max: 10 },
  { name: "Param1", max: 20 },
  { name: "Param2", max: 10, pattern: DATE },
  { name: "Param3", max: 10 },
  ...fillers(30),
];

export const XSIP_FIELDS: readonly FieldSpec[] = [
  ...PLAN_HEAD("UserId"),
  { name: "Brokerage", max: 8 },
  { name: "MandateID", max: 8, pattern: /^\d+$/ },
  { name: "SubberCode", max: 15 },
  ...EUIN,
  { name: "XsipRegID", max: 10, pattern: /^\d+$/ },
  { name: "IPAdd", max: 20 },
  { name: "Password", max: 250, mandatory: true },
  { name: "PassKey", max: 10 },
  { name: "Param1", max: 20 },
  { name: "Param2", max: 15, pattern: /^BSE\d{12}$/ },
  { name: "Param3", max: 10, pattern: DATE },
  ...fillers(30),
];

export interface Registration {
  kind: "SIP" | "XSIP";
  regNo: string;
  clientCode: string;
  schemeCode: string;
  values: Map<string, string>;
  cancelled: boolean;
}

export class DoublePlans {
  readonly registrations: Registration[] = [];
  private readonly cancelRefusals: string[] = [];
  /** When set (registrations.ts `refuseUnknownClients`), why the exchange refuses an XSIP's mandate id for the client, or null. */
  mandateProblem: ((clientCode: string, mandateId: string) => string | null) | null = null;
  private nextRegNo = 75_342;

  constructor(
    private readonly credentials: Credentials,
    private readonly sessions: DoubleSessions,
    private readonly orderEntry: DoubleOrderEntry,
    server: DoubleServer,
  ) {
    server.soap(ORDER_PATH, ORDER_ACTION("switchOrderEntryParam"), ({ params }) => this.switchOrder(params));
    server.soap(ORDER_PATH, ORDER_ACTION("sipOrderEntryParam"), ({ params }) => this.plan("SIP", params));
    server.soap(ORDER_PATH, ORDER_ACTION("xsipOrderEntryParam"), ({ params }) => this.plan("XSIP", params));
  }

  /** The next SIP or XSIP CXL is refused with this remark (flag 1), as the exchange refuses one it will not honour. */
  refuseNextCancel(remark: string): void {
    this.cancelRefusals.push(remark);
  }

  private switchOrder(params: Array<[string, string]>): string {
    const v = readFields(SWITCH_FIELDS, params);
    const transNo = v.get("TransNo")!;
    // The document's order of the success flag and the remark is uncertain (open point 3): the double writes remark, then flag.
    const answer = (outNo: string, remark: string, flag: "0" | "1", inNo = "") =>
      [v.get("TransCode"), transNo, outNo, v.get("UserId"), v.get("MemberId"), v.get("ClientCode"), remark, flag, inNo].join("|");
    const session = this.sessions.check("order", v.get("Password") ?? "", v.get("PassKey") || undefined);
    if (session) return answer("0", session, "1");
    const problem = this.orderEntry.takeTransNo(transNo, v.get("MemberId")!) ?? fieldProblem(SWITCH_FIELDS, v) ?? this.member(v.get("UserId"), v.get("MemberId"));
    if (problem) return answer("0", problem, "1");
    const allUnits = v.get("AllUnitsFlag") === "Y";
    const amount = v.get("OrderVal") ?? "";
    const units = v.get("SwitchUnits") ?? "";
    if (allUnits ? amount !== "" || units !== "" : (amount === "") === (units === "")) return answer("0", "FAILED: EITHER SWITCH AMOUNT OR SWITCH UNITS OR ALL UNITS", "1");
    if (v.get("FromSchemeCd") === v.get("ToSchemeCd")) return answer("0", "FAILED: FROM AND TO SCHEME CANNOT BE SAME", "1");
    if (v.get("DPTxn") === "P" && !v.get("FolioNo")) return answer("0", "FAILED: FOLIO NO IS MANDATORY", "1");
    const scheme = this.orderEntry.schemeMaster.refusal(v.get("FromSchemeCd"), v.get("DPTxn")) ?? this.orderEntry.schemeMaster.refusal(v.get("ToSchemeCd"), v.get("DPTxn"));
    if (scheme) return answer("0", scheme, "1");
    const outNo = this.orderEntry.newOrderNo();
    const inNo = this.orderEntry.newOrderNo();
    const common = { transNo, clientCode: v.get("ClientCode")!, values: v, day: this.orderEntry.today(), internalRef: "", amount, units, orderType: "NRM", subOrderType: "SWITCH" as const };
    this.orderEntry.orders.push({ ...common, orderNo: outNo, schemeCode: v.get("FromSchemeCd")!, buySell: "R" });
    this.orderEntry.orders.push({ ...common, orderNo: inNo, schemeCode: v.get("ToSchemeCd")!, buySell: "P" });
    return answer(outNo, `SWITCH ORDER CONFIRMED: SO ORDER NO ${outNo} SI ORDER NO ${inNo}`, "0", inNo);
  }

  private plan(kind: "SIP" | "XSIP", params: Array<[string, string]>): string {
    const specs = kind === "SIP" ? SIP_FIELDS : XSIP_FIELDS;
    const v = readFields(specs, params);
    const userId = v.get(kind === "SIP" ? "UserID" : "UserId");
    const regField = kind === "SIP" ? "RegId" : "XsipRegID";
    const transNo = v.get("UniqueRefNo")!;
    const answer = (regNo: string, remark: string, flag: "0" | "1") => [v.get("TransactionCode"), transNo, v.get("MemberCode"), v.get("ClientCode"), userId, regNo, remark, flag, ""].join("|");
    const session = this.sessions.check("order", v.get("Password") ?? "", v.get("PassKey") || undefined);
    if (session) return answer("", session, "1");
    const problem = this.orderEntry.takeTransNo(transNo, v.get("MemberCode")!) ?? fieldProblem(specs, v) ?? this.member(userId, v.get("MemberCode"));
    if (problem) return answer("", problem, "1");
    if (v.get("TransactionCode") === "CXL") {
      const refusal = this.cancelRefusals.shift();
      if (refusal) return answer(v.get(regField) ?? "", refusal, "1");
      const registration = this.registrations.find((r) => r.kind === kind && r.regNo === v.get(regField));
      if (!registration || registration.clientCode !== v.get("ClientCode")) return answer(v.get(regField) ?? "", `FAILED: INVALID ${kind} REGISTRATION NUMBER`, "1");
      if (registration.cancelled) return answer(registration.regNo, `FAILED: ${kind} ALREADY CANCELLED`, "1");
      registration.cancelled = true;
      return answer(registration.regNo, `${kind} CANCELLED SUCCESSFULLY`, "0");
    }
    if (v.get(regField)) return answer("", `FAILED: ${regField.toUpperCase()} SHOULD BE BLANK FOR NEW REGISTRATION`, "1");
    if (v.get("TransMode") === "P" ? v.get("DpTxnMode") !== "P" : v.get("DpTxnMode") === "P") return answer("", "FAILED: INVALID DP TRANSACTION MODE", "1");
    if (kind === "XSIP" && !v.get("MandateID") === !v.get("Param2")) return answer("", "FAILED: EITHER XSIP MANDATE ID OR ISIP MANDATE ID IS MANDATORY", "1");
    const scheme = this.orderEntry.schemeMaster.refusal(v.get("SchemeCode"), v.get("DpTxnMode"));
    if (scheme) return answer("", scheme, "1");
    const mandateProblem = kind === "XSIP" ? this.mandateProblem?.(v.get("ClientCode")!, v.get("MandateID") || v.get("Param2")!) : null;
    if (mandateProblem) return answer("", mandateProblem, "1");
    const regNo = String(this.nextRegNo++);
    this.registrations.push({ kind, regNo, clientCode: v.get("ClientCode")!, schemeCode: v.get("SchemeCode")!, values: v, cancelled: false });
    return answer(regNo, `${kind} REGISTRATION DONE SUCCESSFULLY`, "0");
  }

  private member(userId: string | undefined, memberId: string | undefined): string | null {
    if (userId !== this.credentials.userId) return "FAILED: INVALID USER ID";
    if (memberId !== this.credentials.memberId) return "FAILED: INVALID MEMBER CODE";
    return null;
  }
}
