import { fieldProblem, readFields, type FieldSpec } from "./fields.js";
import type { BookedOrder, DoubleOrderEntry } from "./order-entry.js";
import { DATA_CONTRACT_NS, SoapFault, type DoubleServer, type ResultTree, type SoapRequest } from "./server.js";
import type { Credentials } from "./sessions.js";

/**
 * The exchange's reports (bse-starmf-services.md §8) on StarMFWebService.svc: OrderStatus,
 * AllotmentStatement and RedemptionStatement, each taking one `Param` data contract (members in
 * alphabetical order, in the data contract namespace), checked as the exchange checks them (mandatory
 * fields, the login password, DD/MM/YYYY dates, the filter codes), and answering `Status` 100 with the
 * rows of the orders it booked in the date range, or 101 with the document's FAILED: ... texts.
 *
 * Scripted per test: an order INVALID (payment not received...), an order not yet in the report (the
 * report lags behind order entry), and allotment / redemption rows with their NAV, units and amount.
 */

export const WEB_PATH = "/StarMFWebService/StarMFWebService.svc/Secure";
export const WEB_ACTION = (op: string) => `http://www.bsestarmf.in/2016/01/IStarMFWebService/${op}`;
export const WEB_NS = "http://www.bsestarmf.in/2016/01/";

const DATE = /^\d{2}\/\d{2}\/\d{4}$/;
const REQUEST: readonly FieldSpec[] = [
  { name: "ClientCode", max: 20 },
  { name: "Filler1", max: 50 },
  { name: "Filler2", max: 50 },
  { name: "Filler3", max: 50 },
  { name: "FromDate", max: 10 },
  { name: "MemberCode", max: 10 },
  { name: "OrderNo", max: 20, pattern: /^\d+$/ },
  { name: "OrderStatus", max: 10 },
  { name: "OrderType", max: 10 },
  { name: "Password", max: 30 },
  { name: "SettType", max: 10 },
  { name: "SubOrderType", max: 10 },
  { name: "ToDate", max: 10 },
  { name: "UserId", max: 20 },
];
const ORDER_STATUS_REQUEST: readonly FieldSpec[] = [...REQUEST.slice(0, 13), { name: "TransType", max: 5 }, REQUEST[13]!];

export interface Allotment {
  nav: string;
  units: string;
  amount: string;
  folioNo: string;
  valid?: boolean;
  remark?: string;
  /** YYYY-MM-DD; today (the double's) when not given. */
  reportDate?: string;
}

export class DoubleReports {
  private readonly invalid = new Map<string, string>();
  private readonly hidden = new Set<string>();
  private readonly allotted = new Map<string, Allotment>();
  /** Every report request's filters, in order. */
  readonly requests: Array<{ operation: string; values: Map<string, string> }> = [];

  constructor(private readonly credentials: Credentials, private readonly orderEntry: DoubleOrderEntry, server: DoubleServer) {
    server.soap(WEB_PATH, WEB_ACTION("OrderStatus"), (request) => this.orderStatus(request));
    server.soap(WEB_PATH, WEB_ACTION("AllotmentStatement"), (request) => this.statement(request, "P"));
    server.soap(WEB_PATH, WEB_ACTION("RedemptionStatement"), (request) => this.statement(request, "R"));
  }

  /** The order turns INVALID with this remark (as when its payment never came). */
  invalidate(orderNo: string, remark: string): void {
    this.invalid.set(orderNo, remark);
  }

  /** The report does not show the order yet (it lags behind order entry), until `show`. */
  hide(orderNo: string): void {
    this.hidden.add(orderNo);
  }

  show(orderNo: string): void {
    this.hidden.delete(orderNo);
  }

  /** The registrar allots (or rejects) the order: its row appears in the allotment or redemption statement. */
  allot(orderNo: string, allotment: Allotment): void {
    this.allotted.set(orderNo, allotment);
  }

  private orderStatus(request: SoapRequest): ResultTree {
    const found = this.read(request, ORDER_STATUS_REQUEST);
    if (typeof found === "string") return failure("OrderDetails", found);
    const rows = found.map((o): ResultTree => [
      ["ALLUnits", o.values.get("AllRedeem") ?? "N"], ["Amount", o.amount], ["BuySell", o.buySell], ["BuySellType", o.values.get("BuySellType") ?? "FRESH"],
      ["ClientCode", o.clientCode], ["ClientName", "TEST CLIENT"], ["DPC", "Y"], ["DPFolioNo", o.values.get("FolioNo") ?? ""], ["DPTrans", "PHYSICAL"],
      ["Date", ddmmyyyy(o.day)], ["EUIN", o.values.get("EUIN") ?? ""], ["EUINDecl", o.values.get("EUINVal") ?? ""], ["EntryBy", this.credentials.userId],
      ["FirstOrder", "N"], ["FolioNo", o.values.get("FolioNo") ?? ""], ["ISIN", "INF000000000"], ["InternalRefNo", o.internalRef], ["KYCFlag", "Y"],
      ["MINRedeemFlag", "N"], ["MemberCode", this.credentials.memberId], ["MemberRemarks", o.values.get("Remarks") ?? ""], ["OrderNumber", o.orderNo],
      ["OrderRemarks", this.invalid.get(o.orderNo) ?? "ORDER CONFIRMED"], ["OrderStatus", this.invalid.has(o.orderNo) ? "INVALID" : "VALID"],
      ["OrderType", o.orderType], ["SIPRegnDate", ""], ["SIPRegnNo", ""], ["SchemeCode", o.schemeCode], ["SchemeName", "TEST SCHEME"], ["SettNo", "2223001"],
      ["SettType", "MF"], ["SubBrCode", ""], ["SubBrokerARNCode", ""], ["SubOrderType", o.subOrderType], ["Time", "11:15:00"], ["Units", o.units],
    ]);
    return answer("OrderDetails", rows, "ORDER STATUS");
  }

  private statement(request: SoapRequest, buySell: "P" | "R"): ResultTree {
    const list = buySell === "P" ? "AllotmentDetails" : "RedemptionDetails";
    const found = this.read(request, REQUEST);
    if (typeof found === "string") return failure(list, found);
    const rows = found.flatMap((o): ResultTree[] => {
      const a = this.allotted.get(o.orderNo);
      if (o.buySell !== buySell || !a) return [];
      const valid = a.valid ?? true;
      const reportDate = a.reportDate ?? this.orderEntry.today();
      const remark = a.remark ?? (valid ? (buySell === "P" ? "ALLOTTED" : "REDEEMED") : "REJECTED BY RTA");
      if (buySell === "P") {
        return [[
          ["AllottedAmt", a.amount], ["AllottedNav", a.nav], ["AllottedUnit", a.units], ["Amount", o.amount], ["BeneficiaryId", ""], ["BranchCode", "HO"],
          ["ClientCode", o.clientCode], ["ClientName", "TEST CLIENT"], ["DPCFlag", "Y"], ["DPTrans", "P"], ["EUIN", ""], ["EUINDecl", "N"], ["FolioNo", a.folioNo],
          ["ISIN", "INF000000000"], ["InternalRefNo", o.internalRef], ["KYCFlag", "Y"], ["MemberCode", this.credentials.memberId], ["OrderDate", o.day],
          ["OrderNo", o.orderNo], ["OrderType", o.orderType], ["Qty", o.units], ["RTASchemeCode", "RTA1"], ["RTATransNo", `R${o.orderNo}`], ["Remarks", remark],
          ["ReportDate", reportDate], ["SIPRegnDate", ""], ["SIPRegnNo", ""], ["STT", "0.0000"], ["SchemeCode", o.schemeCode], ["SettNo", "2223001"],
          ["SettType", "MF"], ["SubBrCode", ""], ["SubOrderType", o.subOrderType], ["UserId", this.credentials.userId], ["ValidFlag", valid ? "Y" : "N"],
        ]];
      }
      return [[
        ["Amount", o.amount], ["Amt", a.amount], ["BeneficiaryId", ""], ["BranchCode", "HO"], ["ClientCode", o.clientCode], ["ClientName", "TEST CLIENT"],
        ["DPCFlag", "Y"], ["DPTrans", "P"], ["FolioNo", a.folioNo], ["ISIN", "INF000000000"], ["MemberCode", this.credentials.memberId], ["Nav", a.nav],
        ["OrderDate", o.day], ["OrderNo", o.orderNo], ["OrderType", o.orderType], ["Qty", o.units], ["RTASchemeCode", "RTA1"], ["RTATransNo", `R${o.orderNo}`],
        ["Remarks", remark], ["ReportDate", reportDate], ["STT", "0.0000"], ["SchemeCode", o.schemeCode], ["SettNo", "2223001"], ["SettType", "MF"],
        ["SubOrderType", o.subOrderType], ["Unit", a.units], ["UserId", this.credentials.userId], ["ValidFlag", valid ? "Y" : "N"],
      ]];
    });
    return answer(list, rows, "STATEMENT");
  }

  /** The booked orders the request selects, or the exchange's failure text. */
  private read(request: SoapRequest, specs: readonly FieldSpec[]): BookedOrder[] | string {
    if (request.params.map(([name]) => name).join(",") !== "Param") throw new SoapFault("The operation takes one Param element.");
    const contract = request.contracts.get("Param");
    if (!contract || contract.namespace !== DATA_CONTRACT_NS) throw new SoapFault("Param is not a StarMFWebService data contract.");
    const v = readFields(specs, contract.members);
    this.requests.push({ operation: request.operation, values: v });
    if (!v.get("UserId")) return "FAILED: USER ID MANDATORY";
    if (!v.get("MemberCode")) return "FAILED: MEMBER CODE MANDATORY";
    if (!v.get("Password")) return "FAILED: PASSWORD MANDATORY";
    if (v.get("UserId") !== this.credentials.userId) return "FAILED: USER NOT EXISTS";
    if (v.get("MemberCode") !== this.credentials.memberId || v.get("Password") !== this.credentials.password) return "FAILED:INVALID ACCOUNT INFORMATION";
    if (fieldProblem(specs, v)) return fieldProblem(specs, v)!;
    if (!DATE.test(v.get("FromDate")!)) return "FAILED: INVALID FROM DATE";
    if (!DATE.test(v.get("ToDate")!)) return "FAILED: INVALID TO DATE";
    if (v.has("TransType") && !["", "P", "R"].includes(v.get("TransType")!)) return "FAILED: INVALID TRANSACTION TYPE";
    if (!["All", "NRM", "SIP", "XSIP", "ISIP", "STP", "SWP"].includes(v.get("OrderType")!)) return "FAILED: INVALID ORDER TYPE";
    if (!["All", "NRM", "SPOR", "SWITCH"].includes(v.get("SubOrderType")!)) return "FAILED: INVALID ORDER TYPE";
    if (!["All", "VALID", "INVALID"].includes(v.get("OrderStatus")!)) return "FAILED: INVALID ORDER STATUS";
    if (!["ALL", "L0", "L1", "OTHERS"].includes(v.get("SettType")!)) return "FAILED: INVALID SETTLEMENT TYPE";
    const from = iso(v.get("FromDate")!);
    const to = iso(v.get("ToDate")!);
    const client = v.get("ClientCode");
    const orderNo = v.get("OrderNo");
    return this.orderEntry.orders.filter((o) =>
      !this.hidden.has(o.orderNo) && (orderNo ? o.orderNo === orderNo : o.day >= from && o.day <= to && (!client || o.clientCode === client) && (!v.get("TransType") || o.buySell === v.get("TransType"))),
    );
  }
}

/** An answer: the contract's members in alphabetical order, as WCF writes them (AllotmentDetails before Message, the others after). */
function answer(list: string, rows: ResultTree[], message: string, status = "100"): ResultTree {
  const items: [string, ResultTree] = [list, rows.map((row): [string, ResultTree] => [list, row])];
  return list < "Message" ? [items, ["Message", message], ["Status", status]] : [["Message", message], items, ["Status", status]];
}

const failure = (list: string, message: string) => answer(list, [], message, "101");

const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const iso = (ddmm: string) => `${ddmm.slice(6, 10)}-${ddmm.slice(3, 5)}-${ddmm.slice(0, 2)}`;
