import type { DoubleServer } from "./server.js";
import type { DoubleSchemeMaster } from "./scheme-master.js";
import type { Credentials } from "./sessions.js";
import { validateStpRequest } from "./validate-stp.js";

/**
 * The enhanced STP API as the double serves it (bse-starmf-services.md §5): JSON at the document's path,
 * the API key header, the member's credentials in the body, every field checked by validate-stp; a NEW
 * gets a registration number, a CXL must name a live registration of the same client. Answers in the
 * document's shape, all values strings.
 */

export const STP_PATH = "/starmfapi/api/stp/stpregistration";
export const STP_API_KEY_HEADER = "apikey";

export interface DoubleStp {
  registrationNo: string;
  clientCode: string;
  body: Record<string, string>;
  cancelled: boolean;
}

export class DoubleTransfers {
  /** The key the member was given (the double's environment's BSE_API_KEY). */
  apiKey = "double-api-key";
  readonly stps = new Map<string, DoubleStp>();
  /** Every request body received, in order. */
  readonly received: Array<Record<string, unknown>> = [];
  private readonly rejections: string[] = [];
  private nextRegistration = 39_409;

  constructor(private readonly credentials: Credentials, server: DoubleServer, private readonly schemeMaster: DoubleSchemeMaster) {
    server.json(STP_PATH, (body, { headers }) => this.stp(body, headers[STP_API_KEY_HEADER]));
  }

  /** The next valid STP request is refused with `remark`. */
  rejectNext(remark: string): void {
    this.rejections.push(remark);
  }

  private stp(body: unknown, apiKey: string | string[] | undefined) {
    if (apiKey !== this.apiKey) return { status: 401, body: { Message: "Authorization has been denied for this request." } };
    if (typeof body === "object" && body !== null) this.received.push(body as Record<string, unknown>);
    const b = (body ?? {}) as Record<string, string>;
    const reply = (flag: "0" | "1", remarks: string, registrationNo = "0") => ({
      body: {
        TransactionCode: b.TransType ?? "", STPRegNo: registrationNo, BSERemarks: remarks, SuccessFlag: flag, IntRefNo: b.IntRefNo ?? "",
        FromOrderNo: "", ToOrderNo: "", Filler1: "", Filler2: "", Filler3: "", Filler4: "", Filler5: "",
      },
    });
    const problem = validateStpRequest(body);
    if (problem) return reply("1", problem);
    if (b.LoginId !== this.credentials.userId || b.MemberCode !== this.credentials.memberId || b.Password !== this.credentials.password) {
      return reply("1", "FAILED:INVALID ACCOUNT INFORMATION");
    }
    const scripted = this.rejections.shift();
    if (scripted) return reply("1", scripted);
    if (b.TransType === "CXL") {
      const stp = this.stps.get(b.STPRegNo!);
      if (!stp || stp.clientCode !== b.ClientCode) return reply("1", "FAILED: INVALID STP REGISTRATION NUMBER");
      if (stp.cancelled) return reply("1", "FAILED: STP ALREADY CANCELLED");
      stp.cancelled = true;
      return reply("0", "STP CANCELLATION DONE SUCCESSFULLY", stp.registrationNo);
    }
    const scheme = this.schemeMaster.refusal(b.FromBSESchemeCode, b.TransactionMode) ?? this.schemeMaster.refusal(b.ToBSESchemeCode, b.TransactionMode);
    if (scheme) return reply("1", scheme);
    const registrationNo = String(this.nextRegistration++);
    this.stps.set(registrationNo, { registrationNo, clientCode: b.ClientCode!, body: b, cancelled: false });
    return reply("0", "STP REGISTRATION DONE SUCCESSFULLY", registrationNo);
  }
}
