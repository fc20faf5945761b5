import { randomBytes } from "node:crypto";
import { readFields, type FieldSpec } from "./fields.js";
import type { DoubleOrderEntry } from "./order-entry.js";
import type { DoublePlans } from "./plans.js";
import { WEB_ACTION, WEB_PATH } from "./reports.js";
import { WEB_SERVICE } from "./registrations.js";
import type { DoubleServer, ResultTree, SoapRequest } from "./server.js";
import { contractMembers, jsonFace } from "./web-faces.js";
import type { Credentials } from "./sessions.js";

/**
 * The child order details API (bse-starmf-services.md §7): GetPasswordForChildOrder (its own 5-minute
 * session) and ChildOrderDetails for a registration on a day (`DD MMM YYYY`). Tests make the exchange
 * generate an installment with `generate(regNo, day)`: a child order booked like any order (the reports
 * show it, order type SIP or XSP), listed for that registration and day.
 */

const LOGIN: readonly FieldSpec[] = [
  { name: "MemberId", max: 20 },
  { name: "PassKey", max: 10 },
  { name: "Password", max: 30 },
  { name: "RequestType", max: 20 },
  { name: "UserId", max: 20 },
];
const REQUEST: readonly FieldSpec[] = [
  { name: "ClientCode", max: 20 },
  { name: "Date", max: 11 },
  { name: "EncryptedPassword", max: 500 },
  { name: "MemberCode", max: 20 },
  { name: "RegnNo", max: 20 },
  { name: "SystematicPlanType", max: 5 },
];
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export class DoubleChildOrders {
  private readonly sessions = new Map<string, number>();
  private readonly children: Array<{ regNo: string; day: string; orderNo: string }> = [];
  /** Logins answered 100. */
  logins = 0;

  constructor(
    private readonly credentials: Credentials,
    private readonly orderEntry: DoubleOrderEntry,
    private readonly plans: DoublePlans,
    server: DoubleServer,
    private readonly now: () => number = Date.now,
  ) {
    for (const [operation, handler] of [["GetPasswordForChildOrder", (r: SoapRequest) => this.login(r)], ["ChildOrderDetails", (r: SoapRequest) => this.details(r)]] as const) {
      server.soap(WEB_PATH, WEB_ACTION(operation), handler);
      server.json(`${WEB_SERVICE}/${operation}`, jsonFace(operation, handler));
    }
  }

  /** The exchange generates the registration's installment order due on `day` (YYYY-MM-DD); its order number. */
  generate(regNo: string, day: string): string {
    const registration = this.plans.registrations.find((r) => r.regNo === regNo);
    if (!registration) throw new Error(`no registration ${regNo}`);
    const orderNo = this.orderEntry.newOrderNo();
    this.orderEntry.orders.push({
      transNo: "", orderNo, clientCode: registration.clientCode, schemeCode: registration.schemeCode, buySell: "P", values: registration.values, day,
      internalRef: "", amount: `${registration.values.get("InstallmentAmount")}.00`, units: "", orderType: registration.kind === "SIP" ? "SIP" : "XSP", subOrderType: "NRM",
    });
    this.children.push({ regNo, day, orderNo });
    return orderNo;
  }

  /** Every session issued lapses now. */
  expireAll(): void {
    for (const key of this.sessions.keys()) this.sessions.set(key, this.now() - 1);
  }

  private login(request: SoapRequest): ResultTree {
    const v = readFields(LOGIN, contractMembers(request));
    const answer = (status: string, text: string): ResultTree => [["Filler", ""], ["ResponseString", text], ["Status", status]];
    if (!v.get("UserId")) return answer("101", "USER ID SHOULD NOT BE BLANK");
    if (!v.get("PassKey")) return answer("101", "PASSKEY SHOULD NOT BE BLANK");
    if (v.get("UserId") !== this.credentials.userId || v.get("MemberId") !== this.credentials.memberId || v.get("Password") !== this.credentials.password) {
      return answer("101", "INVALID ACCOUNT INFORMATION");
    }
    const encrypted = randomBytes(30).toString("base64");
    this.sessions.set(encrypted, this.now() + 5 * 60_000);
    this.logins += 1;
    return answer("100", encrypted);
  }

  private details(request: SoapRequest): ResultTree {
    const v = readFields(REQUEST, contractMembers(request));
    const answer = (status: string, message: string, rows: ResultTree[] = []): ResultTree => [
      ["ChildOrderDetails", rows.map((row): [string, ResultTree] => ["ChildOrderDetails", row])], ["Message", message], ["Status", status],
    ];
    const expiresAt = this.sessions.get(v.get("EncryptedPassword") ?? "");
    if (expiresAt === undefined) return answer("101", "INVALID ENCRYPTED PASSWORD");
    if (expiresAt <= this.now()) return answer("101", "PASSWORD EXPIRED");
    if (v.get("MemberCode") !== this.credentials.memberId) return answer("101", "INVALID MEMBER CODE");
    const date = /^(\d{2}) ([A-Z]{3}) (\d{4})$/.exec(v.get("Date") ?? "");
    if (!date || !MONTHS.includes(date[2]!)) return answer("101", "INVALID DATE");
    const day = `${date[3]}-${String(MONTHS.indexOf(date[2]!) + 1).padStart(2, "0")}-${date[1]}`;
    const type = v.get("SystematicPlanType") ?? "";
    if (!["SIP", "XSIP", "ISIP", "STP", "SWP"].includes(type)) return answer("101", "INVALID SYSTEMATIC PLAN TYPE");
    const registration = this.plans.registrations.find((r) => r.regNo === v.get("RegnNo"));
    const kindOf = (r: NonNullable<typeof registration>) => (r.kind === "SIP" ? "SIP" : r.values.get("Param2") ? "ISIP" : "XSIP");
    if (!registration || registration.clientCode !== v.get("ClientCode") || kindOf(registration) !== type) return answer("101", "INVALID REGISTRATION NUMBER");
    const rows = this.children
      .filter((c) => c.regNo === registration.regNo && c.day === day)
      .map((c): ResultTree => [
        ["Amount", `${registration.values.get("InstallmentAmount")}.0000`], ["BSESchemeCode", registration.schemeCode], ["BuySell", "P"], ["BuySellType", "FRESH"],
        ["ClientCode", registration.clientCode], ["ClientName", "TEST CLIENT"], ["DPTxnType", registration.values.get("DpTxnMode") ?? "P"], ["EUINFlag", "N"],
        ["EUINNumber", ""], ["FirstOrderTodayFlag", "N"], ["FolioNo", registration.values.get("FolioNo") ?? ""], ["IntRefNo", registration.values.get("InternalRefNo") ?? ""],
        ["KYCFlag", "Y"], ["MemberCode", this.credentials.memberId], ["OrderNumber", c.orderNo], ["OrderType", registration.kind === "SIP" ? "SIP" : "XSP"],
        ["Quantity", "0.0000"], ["RTASchemeCode", "RTA1"], ["SchemeName", "TEST SCHEME"], ["SubBrokerARNCode", ""], ["SubBrokerCode", ""], ["SubOrderType", "NRM"],
      ]);
    return answer("100", `Child Order Details for Registration Number : ${registration.regNo}`, rows);
  }
}
