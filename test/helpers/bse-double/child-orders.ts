import { randomBytes } from "node:crypto";
import { readFields, type FieldSpec } from "./fields.js";
import type { DoubleOrderEntry } from "./order-entry.js";
import type { DoublePlans } from "./plans.js";
import type { DoubleSwp } from "./registrations.js";
import type { DoubleStp } from "./transfers.js";
import { WEB_ACTION, WEB_PATH } from "./reports.js";
import { WEB_SERVICE } from "./registrations.js";
import type { DoubleServer, ResultTree, SoapRequest } from "./server.js";
import { contractMembers, jsonFace } from "./web-faces.js";
import type { Credentials } from "./sessions.js";

/**
 * The child order details API (bse-starmf-services.md §7): GetPasswordForChildOrder (its own 5-minute
 * session) and ChildOrderDetails for a registration on a day (`DD MMM YYYY`). Tests make the exchange
 * generate an installment with `generate(regNo, day)`: a child order booked like any order (the reports
 * show it, order type SIP or XSP; an SWP's a redemption, order type SWP, allotted through the redemption
 * statement; an STP's a switch-out (R) and a switch-in (P, into the target scheme) pair, the switch-in
 * allotted through the allotment statement), listed for that registration and day.
 */

/** What a child order repeats of its registration. */
interface Registration {
  regNo: string;
  clientCode: string;
  schemeCode: string;
  planType: string;
  buySell: "P" | "R";
  orderType: string;
  /** An STP's target scheme: each installment is a switch-out and a switch-in into it. */
  toSchemeCode?: string;
  amount: string;
  units: string;
  folioNo: string;
  internalRef: string;
  dpTxn: string;
  /** What the reports read of the booked order (FolioNo, ...). */
  values: Map<string, string>;
}

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
  private readonly children: Array<{ regNo: string; day: string; orderNo: string; schemeCode: string; buySell: "P" | "R" }> = [];
  /** Logins answered 100. */
  logins = 0;
  private readonly loginRefusals: string[] = [];

  constructor(
    private readonly credentials: Credentials,
    private readonly orderEntry: DoubleOrderEntry,
    private readonly plans: DoublePlans,
    private readonly swps: ReadonlyMap<string, DoubleSwp>,
    private readonly stps: ReadonlyMap<string, DoubleStp>,
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
    const registration = this.registration(regNo);
    if (!registration) throw new Error(`no registration ${regNo}`);
    const book = (schemeCode: string, buySell: "P" | "R") => {
      const orderNo = this.orderEntry.newOrderNo();
      this.orderEntry.orders.push({
        transNo: "", orderNo, clientCode: registration.clientCode, schemeCode, buySell, values: registration.values, day, internalRef: "",
        amount: registration.amount, units: registration.units, orderType: registration.orderType, subOrderType: registration.toSchemeCode ? "SWITCH" : "NRM",
      });
      this.children.push({ regNo, day, orderNo, schemeCode, buySell });
      return orderNo;
    };
    const orderNo = book(registration.schemeCode, registration.buySell);
    if (registration.toSchemeCode) book(registration.toSchemeCode, "P");
    return orderNo;
  }

  /** A SIP/XSIP registration (plans) or an SWP's (MFAPI flag 08), as its child orders repeat it. */
  private registration(regNo: string | undefined): Registration | undefined {
    const plan = this.plans.registrations.find((r) => r.regNo === regNo);
    if (plan) {
      return {
        regNo: plan.regNo, clientCode: plan.clientCode, schemeCode: plan.schemeCode, planType: plan.kind === "SIP" ? "SIP" : plan.values.get("Param2") ? "ISIP" : "XSIP",
        buySell: "P", orderType: plan.kind === "SIP" ? "SIP" : "XSP", amount: `${plan.values.get("InstallmentAmount")}.00`, units: "",
        folioNo: plan.values.get("FolioNo") ?? "", internalRef: plan.values.get("InternalRefNo") ?? "", dpTxn: plan.values.get("DpTxnMode") ?? "P",
        values: plan.values,
      };
    }
    const stp = regNo === undefined ? undefined : this.stps.get(regNo);
    if (stp) {
      const b = stp.body;
      return {
        regNo: stp.registrationNo, clientCode: stp.clientCode, schemeCode: b.FromBSESchemeCode!, toSchemeCode: b.ToBSESchemeCode!, planType: "STP", buySell: "R",
        orderType: "STP", amount: b.InstAmount ?? "", units: b.InstUnit ?? "", folioNo: b.FolioNo ?? "", internalRef: b.IntRefNo ?? "", dpTxn: b.TransactionMode ?? "P",
        values: new Map([["FolioNo", b.FolioNo ?? ""]]),
      };
    }
    const swp = regNo === undefined ? undefined : this.swps.get(regNo);
    if (!swp) return undefined;
    // Flag 08's fields: client, scheme, transaction mode, folio, internal reference, start, installments, frequency, amount, units.
    const f = swp.fields;
    return {
      regNo: swp.registrationNo, clientCode: swp.clientCode, schemeCode: f[1]!, planType: "SWP", buySell: "R", orderType: "SWP",
      amount: f[8]!, units: f[9]!, folioNo: f[3]!, internalRef: f[4]!, dpTxn: f[2]!, values: new Map([["FolioNo", f[3]!]]),
    };
  }

  /** The next login is refused (101) with this text. */
  refuseNextLogin(text: string): void {
    this.loginRefusals.push(text);
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
    const refusal = this.loginRefusals.shift();
    if (refusal !== undefined) return answer("101", refusal);
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
    const registration = this.registration(v.get("RegnNo"));
    if (!registration || registration.clientCode !== v.get("ClientCode") || registration.planType !== type) return answer("101", "INVALID REGISTRATION NUMBER");
    const rows = this.children
      .filter((c) => c.regNo === registration.regNo && c.day === day)
      .map((c): ResultTree => [
        ["Amount", Number(registration.amount || "0").toFixed(4)], ["BSESchemeCode", c.schemeCode], ["BuySell", c.buySell], ["BuySellType", "FRESH"],
        ["ClientCode", registration.clientCode], ["ClientName", "TEST CLIENT"], ["DPTxnType", registration.dpTxn], ["EUINFlag", "N"],
        ["EUINNumber", ""], ["FirstOrderTodayFlag", "N"], ["FolioNo", registration.folioNo], ["IntRefNo", registration.internalRef],
        ["KYCFlag", "Y"], ["MemberCode", this.credentials.memberId], ["OrderNumber", c.orderNo], ["OrderType", registration.orderType],
        ["Quantity", registration.units ? Number(registration.units).toFixed(4) : "0.0000"], ["RTASchemeCode", "RTA1"], ["SchemeName", "TEST SCHEME"], ["SubBrokerARNCode", ""], ["SubBrokerCode", ""], ["SubOrderType", "NRM"],
      ]);
    return answer("100", `Child Order Details for Registration Number : ${registration.regNo}`, rows);
  }
}
