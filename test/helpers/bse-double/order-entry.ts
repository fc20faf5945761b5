import { fieldProblem, readFields, type FieldSpec } from "./fields.js";
import type { DoubleSchemeMaster } from "./scheme-master.js";
import type { DoubleServer } from "./server.js";
import { ORDER_ACTION, ORDER_PATH, type Credentials, type DoubleSessions } from "./sessions.js";

/**
 * orderEntryParam as the exchange takes it (bse-starmf-orders.md §3): the 37 elements in the document's
 * order, each checked for mandatory, length and code values, the session, the TransNo (format, today's
 * date in India, the member's code, never seen before: a repeat is refused even when the first was
 * rejected), and the purchase/redemption rules (OrderVal or Qty, nothing with AllRedeem Y, Param3 for a
 * redemption, none for a purchase); a lump sum's CXL or MOD is refused, as the exchange no longer cancels or
 * modifies one-time orders (§5). Answers the 8 pipe fields: `NEW|TransNo|OrderNo|UserID|MemberId|ClientCode|remark|flag`.
 */

const AMOUNT = /^\d{1,11}(\.\d{1,2})?$/;
const UNITS = /^\d{1,8}(\.\d{1,3})?$/;
const YN = ["Y", "N"] as const;

export const ORDER_ENTRY_FIELDS: readonly FieldSpec[] = [
  // MOD and CXL are still codes of the message, but refused: real-time RTA integration withdrew them (§5).
  { name: "TransCode", max: 3, mandatory: true, values: ["NEW", "MOD", "CXL"] },
  { name: "TransNo", max: 19, mandatory: true },
  { name: "OrderId", max: 8, pattern: /^\d+$/ },
  { name: "UserID", max: 10, mandatory: true, pattern: /^\d+$/ },
  { name: "MemberId", max: 20, mandatory: true },
  { name: "ClientCode", max: 20, mandatory: true },
  { name: "SchemeCd", max: 20, mandatory: true },
  { name: "BuySell", max: 1, mandatory: true, values: ["P", "R"] },
  { name: "BuySellType", max: 10, mandatory: true, values: ["FRESH", "ADDITIONAL"] },
  { name: "DPTxn", max: 10, mandatory: true, values: ["C", "N", "P"] },
  { name: "OrderVal", max: 14, pattern: AMOUNT },
  { name: "Qty", max: 12, pattern: UNITS },
  { name: "AllRedeem", max: 1, mandatory: true, values: YN },
  { name: "FolioNo", max: 20 },
  { name: "Remarks", max: 255 },
  { name: "KYCStatus", max: 1, mandatory: true, values: YN },
  { name: "RefNo", max: 20 },
  { name: "SubBrCode", max: 15 },
  { name: "EUIN", max: 20, pattern: /^E\d{6}$/ },
  { name: "EUINVal", max: 1, mandatory: true, values: YN },
  { name: "MinRedeem", max: 1, mandatory: true, values: YN },
  { name: "DPC", max: 1, mandatory: true, values: ["Y"] },
  { name: "IPAdd", max: 20 },
  { name: "Password", max: 250, mandatory: true },
  { name: "PassKey", max: 10, mandatory: true },
  { name: "Parma1", max: 20 },
  { name: "Param2", max: 25 },
  { name: "Param3", max: 20 },
  { name: "MobileNo", max: 10, pattern: /^[6-9]\d{9}$/ },
  { name: "EmailID", max: 50 },
  { name: "MandateID", max: 10 },
  { name: "Filler1", max: 30 },
  { name: "Filler2", max: 30 },
  { name: "Filler3", max: 30 },
  { name: "Filler4", max: 30 },
  { name: "Filler5", max: 30 },
  { name: "Filler6", max: 30 },
];

export interface BookedOrder {
  transNo: string;
  orderNo: string;
  clientCode: string;
  schemeCode: string;
  buySell: "P" | "R";
  values: Map<string, string>;
  /** YYYY-MM-DD (India): the order's date in the exchange's reports. */
  day: string;
  /** The internal reference sent with it (RefNo), as the order status report returns it. */
  internalRef: string;
  amount: string;
  units: string;
  /** NRM, or the SIP registration's type for its first order. */
  orderType: string;
  subOrderType: "NRM" | "SWITCH";
}

type Decision = { reject: string } | "accept";

export class DoubleOrderEntry {
  /** Orders the exchange placed (accepted), in order. */
  readonly orders: BookedOrder[] = [];
  /** Every TransNo seen, accepted or not. */
  readonly transNos = new Set<string>();
  private readonly decisions: Decision[] = [];
  /** When set (registrations.ts `refuseUnknownClients`), an order for a client code the exchange does not have is refused. */
  knownClient: ((clientCode: string) => boolean) | null = null;
  private nextOrderNo = 7_531_973;

  constructor(
    private readonly credentials: Credentials,
    private readonly sessions: DoubleSessions,
    server: DoubleServer,
    readonly today: () => string,
    readonly schemeMaster: DoubleSchemeMaster,
  ) {
    server.soap(ORDER_PATH, ORDER_ACTION("orderEntryParam"), ({ params }) => this.orderEntry(params));
  }

  /** The exchange's next order number (every order type numbers from the same sequence). */
  newOrderNo(): string {
    return String(this.nextOrderNo++);
  }

  /**
   * An order the member placed some other way (the exchange's own front end): booked and reported like any,
   * with no TransNo and no internal reference of ours.
   */
  placeOutside(order: { clientCode: string; schemeCode: string; buySell: "P" | "R"; amount: string; units?: string }): BookedOrder {
    const booked: BookedOrder = {
      transNo: "", orderNo: this.newOrderNo(), clientCode: order.clientCode, schemeCode: order.schemeCode, buySell: order.buySell, values: new Map(),
      day: this.today(), internalRef: "", amount: order.amount, units: order.units ?? "", orderType: "NRM", subOrderType: "NRM",
    };
    this.orders.push(booked);
    return booked;
  }

  /** The next valid order is rejected with this remark (flag 1) instead of accepted. */
  rejectNext(remark: string): void {
    this.decisions.push({ reject: remark });
  }

  private orderEntry(params: Array<[string, string]>): string {
    const v = readFields(ORDER_ENTRY_FIELDS, params);
    const transNo = v.get("TransNo") ?? "";
    const answer = (orderNo: string, remark: string, flag: "0" | "1") =>
      [v.get("TransCode"), transNo, orderNo, v.get("UserID"), v.get("MemberId"), v.get("ClientCode"), remark, flag].join("|");
    const session = this.sessions.check("order", v.get("Password") ?? "", v.get("PassKey"));
    if (session) return answer("0", session, "1");
    const problem = fieldProblem(ORDER_ENTRY_FIELDS, v) ?? this.transNoProblem(transNo, v.get("MemberId")!) ?? this.ruleProblem(v);
    const repeated = this.transNos.has(transNo);
    this.transNos.add(transNo);
    if (repeated) return answer("0", "FAILED: DUPLICATE TRANSACTION NUMBER", "1");
    const transCode = v.get("TransCode");
    if (transCode === "CXL" || transCode === "MOD") return answer(v.get("OrderId") || "0", `FAILED: ORDER ${transCode === "CXL" ? "CANCELLATION" : "MODIFICATION"} NOT ALLOWED`, "1");
    if (problem) return answer("0", problem, "1");
    if (v.get("UserID") !== this.credentials.userId) return answer("0", "FAILED: INVALID USER ID", "1");
    if (v.get("MemberId") !== this.credentials.memberId) return answer("0", "FAILED: INVALID MEMBER CODE", "1");
    if (this.knownClient && !this.knownClient(v.get("ClientCode")!)) return answer("0", "FAILED: INVALID CLIENT CODE", "1");
    const scheme = this.schemeMaster.refusal(v.get("SchemeCd"), v.get("DPTxn"));
    if (scheme) return answer("0", scheme, "1");
    const decision = this.decisions.shift() ?? "accept";
    if (decision !== "accept") return answer("0", decision.reject, "1");
    const orderNo = this.newOrderNo();
    const buySell = v.get("BuySell") as "P" | "R";
    this.orders.push({
      transNo, orderNo, clientCode: v.get("ClientCode")!, schemeCode: v.get("SchemeCd")!, buySell, values: v, day: this.today(), internalRef: v.get("RefNo") ?? "",
      amount: v.get("OrderVal") ?? "", units: v.get("Qty") ?? "", orderType: "NRM", subOrderType: "NRM",
    });
    const what = buySell === "P"
      ? `${v.get("BuySellType")} PURCHASE ${v.get("OrderVal")}`
      : `${v.get("BuySellType")} REDEMPTION ${v.get("AllRedeem") === "Y" ? "ALL UNITS" : v.get("Qty") ? `${v.get("Qty")} UNITS` : v.get("OrderVal")}`;
    const mode = { P: "PHYSICAL", C: "CDSL", N: "NSDL" }[v.get("DPTxn") as "P" | "C" | "N"];
    return answer(
      orderNo,
      `ORD CONF: Your Request for ${what} in SCHEME: ${v.get("SchemeCd")} THRO : ${mode} is confirmed for CLIENT : TEST CLIENT (Code: ${v.get("ClientCode")}) CONFIRMATION TIME: Jun 2 2022 11:15AM ENTRY BY: ORDER NO: ${orderNo}`,
      "0",
    );
  }

  /**
   * The exchange's checks of a unique reference number on any order message: the member's format and
   * today's date, and never seen before (recorded as seen whatever the outcome). The failure text, or null.
   */
  takeTransNo(transNo: string, memberId: string): string | null {
    const problem = this.transNoProblem(transNo, memberId);
    const repeated = this.transNos.has(transNo);
    this.transNos.add(transNo);
    return repeated ? "FAILED: DUPLICATE TRANSACTION NUMBER" : problem;
  }

  private transNoProblem(transNo: string, memberId: string): string | null {
    const format = new RegExp(`^(\\d{8})${memberId.replace(/[^A-Za-z0-9]/g, "")}\\d{6}$`);
    const match = format.exec(transNo);
    if (!match) return "FAILED: INVALID TRANSACTION NUMBER";
    if (match[1] !== this.today().replaceAll("-", "")) return "FAILED: INVALID TRANSACTION NUMBER";
    return null;
  }

  private ruleProblem(v: Map<string, string>): string | null {
    const allRedeem = v.get("AllRedeem") === "Y";
    const amount = v.get("OrderVal") ?? "";
    const units = v.get("Qty") ?? "";
    if (v.get("BuySell") === "P") {
      if (allRedeem || units !== "") return "FAILED: INVALID PURCHASE ORDER";
      if (amount === "" || Number(amount) <= 0) return "FAILED: ORDER VALUE IS MANDATORY";
      if (v.get("Param3")) return "FAILED: BANK ACCOUNT NUMBER ONLY FOR REDEMPTION";
      if (v.get("BuySellType") === "ADDITIONAL" && v.get("DPTxn") === "P" && !v.get("FolioNo")) return "FAILED: FOLIO NO IS MANDATORY";
    } else {
      if (allRedeem && (amount !== "" || units !== "")) return "FAILED: AMOUNT AND QUANTITY SHOULD BE BLANK FOR ALL REDEEM";
      if (!allRedeem && (amount === "") === (units === "")) return "FAILED: EITHER ORDER VALUE OR QUANTITY IS MANDATORY";
      if (v.get("Param2")) return "FAILED: PG REFERENCE ONLY FOR PURCHASE";
      // Param3, the account the proceeds go to: "Y for redemption" (§3), physical or demat.
      if (!v.get("Param3")) return "FAILED: BANK ACCOUNT NUMBER IS MANDATORY FOR REDEMPTION";
      if (v.get("DPTxn") === "P" && !v.get("FolioNo")) return "FAILED: FOLIO NO IS MANDATORY";
    }
    if (v.get("DPTxn") !== "P" && v.get("FolioNo")) return "FAILED: FOLIO NO NOT ALLOWED FOR DEMAT";
    return null;
  }
}
