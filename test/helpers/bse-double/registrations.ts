import { randomBytes } from "node:crypto";
import { readFields, type FieldSpec } from "./fields.js";
import type { DoubleOrderEntry } from "./order-entry.js";
import type { DoublePlans } from "./plans.js";
import type { DoubleServer, JsonHandler } from "./server.js";
import { WEB_ACTION, WEB_PATH } from "./reports.js";
import { soapFace } from "./web-faces.js";
import { UPLOAD_ACTION, UPLOAD_PATH, type Credentials, type DoubleSessions } from "./sessions.js";
import { DATE } from "./validate-common.js";
import { validateMfapiParam } from "./validate-mfapi.js";
import { validateUccRequest } from "./validate-ucc.js";

/**
 * The exchange's registrations and payments as the double serves them (bse-starmf-services.md §1-3, §6,
 * §9.2): the enhanced UCC JSON API (NEW/MOD), MFAPI on the upload service (FATCA 01, mandate 06, SWP
 * registration 08 and cancellation 10, client order payment status 11), the mandate status API (GetAccessToken, MandateDetails), the e-NACH
 * authentication URL and the single payment API. Each request is checked by the validators written from
 * the document; the double remembers registered client codes (with their bank accounts), FATCA records,
 * mandates and payments, so later requests are checked against them.
 */

export const UCC_PATH = "/StarMFCommonAPI/ClientMaster/Registration";
export const WEB_SERVICE = "/StarMFWebService/StarMFWebService.svc";
export const PAYMENT_PATH = "/StarMFSinglePaymentAPI/Single/Payment";

const MFAPI_FIELDS: readonly FieldSpec[] = [
  { name: "Flag", max: 2 },
  { name: "UserId", max: 20 },
  { name: "EncryptedPassword", max: 500 },
  { name: "param", max: 100_000 },
];

export interface DoubleClient {
  clientCode: string;
  regnType: "NEW" | "MOD";
  fields: string[];
  /** The bank accounts of the UCC (fields 43, 48, 53, 58, 63). */
  accounts: string[];
}

export interface DoubleMandate {
  mandateId: string;
  clientCode: string;
  type: string;
  amount: string;
  /** The bank account and dates as registered (flag 06 fields 4, 8, 9). */
  accountNumber: string;
  startDate: string;
  endDate: string;
  /** When the exchange booked it, as the status API shows it (`MMM DD YYYY H:MMAM`). */
  registeredAt: string;
  status: string;
  remarks: string;
  umrn: string;
}

export interface DoubleSwp {
  registrationNo: string;
  clientCode: string;
  fields: string[];
  cancelled: boolean;
}

export interface DoublePayment {
  clientCode: string;
  mode: string;
  orderNumbers: string[];
  body: Record<string, unknown>;
}

type Answer = { status?: number; body: unknown };

export class DoubleRegistrations {
  readonly clients = new Map<string, DoubleClient>();
  /** Every valid UCC request received (answered or not), in order. */
  readonly uccRequests: Array<{ clientCode: string; regnType: string }> = [];
  /** FATCA records by PAN_RP. */
  readonly fatca = new Map<string, string[]>();
  readonly mandates = new Map<string, DoubleMandate>();
  readonly payments: DoublePayment[] = [];
  /** SWP registrations (flag 08) by registration number. */
  readonly swps = new Map<string, DoubleSwp>();
  private nextSwp = 61_001;
  /** Flag 11's text per exchange order number (default: PAYMENT NOT INITIATED FOR GIVEN ORDER). */
  readonly paymentStatus = new Map<string, string>();
  private readonly rejections = new Map<string, string[]>();
  private readonly tokens = new Set<string>();
  private nextMandate = 80_001;

  constructor(
    private readonly credentials: Credentials,
    private readonly sessions: DoubleSessions,
    private readonly orderEntry: DoubleOrderEntry,
    server: DoubleServer,
    private readonly plans?: DoublePlans,
  ) {
    server.json(UCC_PATH, (body) => this.ucc(body));
    server.soap(UPLOAD_PATH, UPLOAD_ACTION("MFAPI"), ({ params }) => this.mfapi(params));
    const webOperations: Array<[string, JsonHandler]> = [
      ["GetAccessToken", (body) => this.accessToken(body)],
      ["MandateDetails", (body) => this.mandateDetails(body)],
      ["EMandateAuthURL", (body) => this.authUrl(body)],
    ];
    for (const [operation, handler] of webOperations) {
      server.json(`${WEB_SERVICE}/${operation}`, handler);
      server.soap(WEB_PATH, WEB_ACTION(operation), soapFace(handler));
    }
    server.json(PAYMENT_PATH, (body) => this.payment(body));
    server.onExpireSessions(() => this.expireTokens());
  }

  /** The next valid request of `service` ("UCC", an MFAPI flag "01"/"06"/"11", "PAYMENT") is refused with `remark`. */
  rejectNext(service: string, remark: string): void {
    this.rejections.set(service, [...(this.rejections.get(service) ?? []), remark]);
  }

  /**
   * From now on order entry refuses orders for client codes not registered here (FAILED: INVALID CLIENT
   * CODE), and XSIP registrations on a mandate that is not the client's or not APPROVED.
   */
  refuseUnknownClients(): void {
    this.orderEntry.knownClient = (clientCode) => this.clients.has(clientCode);
    if (!this.plans) return;
    this.plans.mandateProblem = (clientCode, mandateId) => {
      const mandate = this.mandates.get(mandateId);
      if (!mandate || mandate.clientCode !== clientCode) return "FAILED: INVALID MANDATE NUMBER FOR GIVEN CLIENT CODE";
      return mandate.status === "APPROVED" ? null : "FAILED: MANDATE IS NOT APPROVED";
    };
  }

  /** Every access token of the mandate status API lapses now. */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** The bank's (or NPCI's) verdict on a mandate, as the status API will report it. */
  setMandateStatus(mandateId: string, status: string, remarks = ""): void {
    const mandate = this.mandates.get(mandateId);
    if (!mandate) throw new Error(`the double has no mandate ${mandateId}`);
    Object.assign(mandate, { status, remarks, umrn: status === "APPROVED" ? `HDFC${mandateId.padStart(16, "0")}` : mandate.umrn });
  }

  private scripted(service: string): string | undefined {
    return this.rejections.get(service)?.shift();
  }

  private memberOk(userId: unknown, memberCode: unknown, password: unknown): boolean {
    return userId === this.credentials.userId && memberCode === this.credentials.memberId && password === this.credentials.password;
  }

  private ucc(body: unknown): Answer {
    const reply = (status: "0" | "1", remarks: string) => ({ body: { Status: status, Remarks: remarks, Filler1: "", Filler2: "" } });
    const problem = validateUccRequest(body);
    if (problem) return reply("1", problem);
    const b = body as Record<string, string>;
    if (!this.memberOk(b.UserId, b.MemberCode, b.Password)) return reply("1", "FAILED:INVALID ACCOUNT INFORMATION");
    const fields = b.Param!.split("|");
    const clientCode = fields[0]!;
    this.uccRequests.push({ clientCode, regnType: b.RegnType! });
    const exists = this.clients.has(clientCode);
    if (b.RegnType === "NEW" && exists) return reply("1", "FAILED: CLIENT CODE ALREADY EXISTS");
    if (b.RegnType === "MOD" && !exists) return reply("1", "FAILED: CLIENT CODE DOES NOT EXIST");
    const scripted = this.scripted("UCC");
    if (scripted) return reply("1", scripted);
    const accounts = [43, 48, 53, 58, 63].map((n) => fields[n - 1]!).filter(Boolean);
    this.clients.set(clientCode, { clientCode, regnType: b.RegnType as "NEW" | "MOD", fields, accounts });
    return reply("0", b.RegnType === "NEW" ? "CLIENT REGISTERED SUCCESSFULLY" : "CLIENT UPDATED SUCCESSFULLY");
  }

  private mfapi(params: Array<[string, string]>): string {
    const v = readFields(MFAPI_FIELDS, params);
    const flag = v.get("Flag") ?? "";
    const session = this.sessions.check("upload", v.get("EncryptedPassword") ?? "", undefined);
    if (session) return `101|${session}`;
    if (v.get("UserId") !== this.credentials.userId) return "101|INVALID USER ID";
    const param = v.get("param") ?? "";
    const problem = validateMfapiParam(flag, param);
    if (problem) return `101|${problem}`;
    const f = param.split("|");
    if ((flag === "06" || flag === "08" || flag === "11") && !this.clients.has(f[0]!)) return "101|INVALID CLIENT CODE";
    if (flag === "08" && !this.clients.get(f[0]!)!.accounts.includes(f[18]!)) return "101|FAILED: INVALID BANK ACCOUNT NUMBER";
    const scripted = this.scripted(flag);
    if (scripted) return `101|${scripted}`;
    switch (flag) {
      case "01":
        this.fatca.set(f[0]!, f);
        return "100|RECORD INSERTED SUCCESSFULLY";
      case "06": {
        const type = f[2]!;
        const mandateId = type === "I" ? `BSE${String(521824730000 + this.nextMandate++)}` : String(this.nextMandate++);
        this.mandates.set(mandateId, {
          mandateId, clientCode: f[0]!, type, amount: f[1]!, accountNumber: f[3]!, startDate: f[7]!, endDate: f[8]!,
          registeredAt: regnDate(new Date()), status: "REGISTERED BY MEMBER", remarks: "", umrn: "",
        });
        return `100|MANDATE REGISTRATION DONE SUCCESSFULLY ${mandateId}`;
      }
      case "08": {
        // An SWP names its scheme (field 2) and its transaction mode (field 3: P, C or N).
        const scheme = this.orderEntry.schemeMaster.refusal(f[1], f[2]);
        if (scheme) return `101|${scheme}`;
        const registrationNo = String(this.nextSwp++);
        this.swps.set(registrationNo, { registrationNo, clientCode: f[0]!, fields: f, cancelled: false });
        return `100|SWP REGISTRATION DONE SUCCESSFULLY. SWP REG NO : ${registrationNo}`;
      }
      case "10": {
        const swp = this.swps.get(f[0]!);
        if (!swp || swp.clientCode !== f[1]) return "101|FAILED: INVALID STP REGISTRATION NUMBER";
        if (swp.cancelled) return "101|FAILED: SWP ALREADY CANCELLED";
        swp.cancelled = true;
        return "100|SWP CANCELLED SUCCESSFULLY";
      }
      case "11": {
        const [clientCode, orderNo] = f as [string, string];
        const order = this.orderEntry.orders.find((o) => o.orderNo === orderNo);
        if (!order) return "101|INVALID ORDER NUMBER";
        if (order.clientCode !== clientCode) return "101|INVALID ORDER NUMBER FOR GIVEN CLIENT";
        return `100|${this.paymentStatus.get(orderNo) ?? "PAYMENT NOT INITIATED FOR GIVEN ORDER"}`;
      }
      default:
        return "101|INVALID ACTION CODE";
    }
  }

  private accessToken(body: unknown): Answer {
    const b = (body ?? {}) as Record<string, unknown>;
    if (b.RequestType !== "MANDATE") return { body: { Status: "101", ResponseString: "FAILED: INVALID REQUEST TYPE", Filler: null } };
    if (!this.memberOk(b.UserId, b.MemberId, b.Password) || typeof b.PassKey !== "string" || !/^[A-Za-z0-9]{1,20}$/.test(b.PassKey)) {
      return { body: { Status: "101", ResponseString: "FAILED:INVALID ACCOUNT INFORMATION", Filler: null } };
    }
    const token = randomBytes(24).toString("base64");
    this.tokens.add(token);
    this.sessions.issued.push(token);
    return { body: { Status: "100", ResponseString: token, Filler: null } };
  }

  private mandateDetails(body: unknown): Answer {
    const b = (body ?? {}) as Record<string, string>;
    const fail = (message: string) => ({ body: { MandateDetails: [], Message: message, Status: "101" } });
    if (!this.tokens.has(b.EncryptedPassword ?? "")) return fail("FAILED: ACCESS TOKEN EXPIRED");
    if (!DATE.test(b.FromDate ?? "")) return fail("FAILED: INVALID FROM DATE");
    if (!DATE.test(b.ToDate ?? "")) return fail("FAILED: INVALID TO DATE");
    if (b.MemberCode !== this.credentials.memberId) return fail("FAILED: INVALID MEMBER CODE");
    if (!this.clients.has(b.ClientCode ?? "")) return fail("FAILED: INVALID CLIENT CODE FOR GIVEN MEMBER CODE");
    const wanted = [...this.mandates.values()].filter((m) => m.clientCode === b.ClientCode && (!b.MandateId || m.mandateId === b.MandateId));
    if (b.MandateId && wanted.length === 0) {
      return fail(this.mandates.has(b.MandateId) ? "FAILED: INVALID MANDATE ID FOR GIVEN MEMBER CODE AND CLIENT CODE" : "FAILED: INVALID MANDATE ID");
    }
    const rows = wanted.map((m) => ({
      MandateId: m.mandateId, ClientCode: m.clientCode, ClientName: "TEST CLIENT", MemberCode: this.credentials.memberId, BankName: "HDFC BANK",
      BankBranch: "MUMBAI", Amount: `${Number(m.amount).toFixed(4)}`, RegnDate: m.registeredAt, Status: m.status, UMRNNo: m.umrn,
      Remarks: m.remarks, ApprovedDate: m.status === "APPROVED" ? "21/01/2026" : "", BankAccNo: m.accountNumber, CollectionType: "", MandateType: m.type === "I" ? "ISIP" : "XSP",
      UploadDate: m.registeredAt,
    }));
    return { body: { MandateDetails: rows, Message: "Mandate Details ", Status: "100" } };
  }

  private authUrl(body: unknown): Answer {
    const b = (body ?? {}) as Record<string, unknown>;
    const reply = (status: "100" | "101", text: string) => ({ body: { Status: status, ResponseString: text, Fillers: null } });
    if (!b.UserId) return reply("101", "FAILED: USER ID MANDATORY");
    if (!b.MemberCode) return reply("101", "FAILED: MEMBER CODE MANDATORY");
    if (!b.Password) return reply("101", "FAILED: PASSWORD MANDATORY");
    if (!this.memberOk(b.UserId, b.MemberCode, b.Password)) return reply("101", "FAILED:INVALID ACCOUNT INFORMATION");
    const mandate = this.mandates.get(String(b.MandateID ?? ""));
    if (!mandate) return reply("101", "ENACHURL NOT GENERATED");
    if (mandate.clientCode !== b.ClientCode) return reply("101", "INVALID CLIENT CODE FOR GIVEN MANDATE ID");
    if (mandate.type !== "N") return reply("101", "ENACHURL NOT GENERATED");
    return reply("100", `https://bsestarmfdemo.bseindia.com/ENACH/Authenticate.aspx?mandate=${mandate.mandateId}`);
  }

  private payment(body: unknown): Answer {
    const b = (body ?? {}) as Record<string, unknown>;
    const reply = (status: "100" | "101", text: string) => ({
      body: { responsestring: text, statuscode: status, internalrefno: typeof b.internalrefno === "string" ? b.internalrefno : "", filler1: "", filler2: "", filler3: "", filler4: "" },
    });
    const text = (key: string) => (typeof b[key] === "string" ? (b[key] as string) : "");
    if (!this.memberOk(b.LoginId, b.membercode, b.Password)) return reply("101", "INVALID ACCOUNT INFORMATION");
    const client = this.clients.get(text("clientcode"));
    if (!client) return reply("101", "INVALID CLIENT CODE");
    const mode = text("modeofpayment");
    if (!["DIRECT", "NODAL", "NEFT", "UPI"].includes(mode)) return reply("101", "INVALID PAYMENT MODE");
    if (mode !== "NEFT" && !/^[A-Z0-9]{3,4}$/.test(text("bankid"))) return reply("101", "FAILED: INVALID BANK ID");
    if (!client.accounts.includes(text("accountnumber"))) return reply("101", "INVALID CLIENT ACCOUNT NUMBER");
    if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(text("ifsc"))) return reply("101", "FAILED: INVALID IFSC");
    const numbers = text("ordernumber").split("|").filter(Boolean);
    if (numbers.length === 0) return reply("101", "SELECT AT LEAST ONE ORDER");
    const orders = numbers.map((n) => this.orderEntry.orders.find((o) => o.orderNo === n && o.clientCode === client.clientCode));
    if (orders.some((o) => !o)) return reply("101", "INVALID ORDER NUMBER");
    const total = orders.reduce((sum, o) => sum + Number(o!.values.get("OrderVal") || 0), 0);
    if (Math.abs(total - Number(text("totalamount"))) > 0.001) return reply("101", "INVALID TOTAL ORDER AMOUNT");
    if (mode === "UPI" && !/^[^@\s]+@[^@\s]+$/.test(text("vpaid"))) return reply("101", "FAILED: INVALID VPA ID");
    if ((mode === "DIRECT" || mode === "NODAL") && !/^https?:\/\/\S+$/.test(text("loopbackURL"))) return reply("101", "INVALID LOGOUT URL FORMAT");
    if (numbers.some((n) => this.paymentStatus.has(n))) return reply("101", "ORDER NUMBER ALREADY INITIATED");
    const scripted = this.scripted("PAYMENT");
    if (scripted) return reply("101", scripted);
    this.payments.push({ clientCode: client.clientCode, mode, orderNumbers: numbers, body: b });
    for (const n of numbers) this.paymentStatus.set(n, `AWAITING FOR FUNDS CONFIRMATION (${mode === "UPI" ? "UPI" : "NET BANKING"})`);
    if (mode === "UPI") return reply("100", "PAYMENT INITIATED: APPROVE THE COLLECT REQUEST IN YOUR UPI APP");
    return reply(
      "100",
      `<html><body><form id="bank" method="post" action="https://netbanking.bank.example/pay"><input type="hidden" name="ref" value="${numbers.join(",")}"></form><script>document.getElementById("bank").submit()</script></body></html>`,
    );
  }
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The status API's date-time (§6.3, sample `Jan 20 2018 4:12PM`), India time. */
function regnDate(at: Date): string {
  const india = new Date(at.getTime() + 5.5 * 3_600_000);
  const hours = india.getUTCHours();
  const minutes = String(india.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[india.getUTCMonth()]} ${String(india.getUTCDate()).padStart(2, "0")} ${india.getUTCFullYear()} ${hours % 12 || 12}:${minutes}${hours < 12 ? "AM" : "PM"}`;
}
