import type { DoublePlans } from "./plans.js";
import type { DoubleServer } from "./server.js";
import type { Credentials } from "./sessions.js";
import { STP_API_KEY_HEADER } from "./transfers.js";
import { checkField, invalid, mandatory, type FieldRule } from "./validate-common.js";

/**
 * The SIP / XSIP pause API as the double serves it (bse-starmf-services.md §10.1): JSON POST at the document's
 * path, the `APIKey` header, the member's credentials in the body, every field checked against the document's
 * table; the registration must be a live SIP or XSIP registration of that client code that the double booked
 * (plans.ts). Answers `{RegistrationNumber, BseRemarks, StatusFlag, filler}` (StatusFlag 0 success, 1 failure).
 * The document gives no error list: refusals use the exchange's `FAILED: ...` style.
 */

export const PAUSE_SIP_PATH = "/StarMFAPI/api/Pause/PauseSIP";

const RULES: Array<[key: string, rule: FieldRule]> = [
  ["LoginId", { name: "LOGIN ID", mandatory: true, max: 20 }],
  ["MemberCode", { name: "MEMBER CODE", mandatory: true, max: 20 }],
  ["Password", { name: "PASSWORD", mandatory: true }],
  ["ClientCode", { name: "CLIENT CODE", mandatory: true, max: 10 }],
  ["RegistrationType", { name: "REGISTRATION TYPE", mandatory: true, max: 5, codes: ["SIP", "XSIP"] }],
  // Bigint: a JSON integer (a string of digits deserializes too).
  ["RegistrationNumber", { name: "REGISTRATION NUMBER", mandatory: true, max: 19, pattern: /^[1-9]\d*$/ }],
  ["ModificationType", { name: "MODIFICATION TYPE", mandatory: true, max: 50, codes: ["PAUSE"] }],
  // Numeric: the instalments to skip; the document gives no limits, so any whole number from 1.
  ["NoOfInstalments", { name: "NO OF INSTALMENTS", mandatory: true, pattern: /^[1-9]\d{0,3}$/ }],
  ["filler1", { name: "FILLER1", max: 50 }],
  ["filler2", { name: "FILLER2", max: 50 }],
  ["filler3", { name: "FILLER3", max: 50 }],
  ["filler4", { name: "FILLER4", max: 50 }],
  ["filler5", { name: "FILLER5", max: 50 }],
];
const NUMERIC = new Set(["RegistrationNumber", "NoOfInstalments"]);

/** The first broken rule of a PauseSIP body, or null. */
export function validatePauseRequest(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "FAILED: INVALID REQUEST FORMAT";
  const b = body as Record<string, unknown>;
  const known = new Set(RULES.map(([key]) => key));
  const unknown = Object.keys(b).find((key) => !known.has(key));
  if (unknown) return `FAILED: UNKNOWN FIELD ${unknown.toUpperCase()}`;
  for (const [key, rule] of RULES) {
    const raw = b[key];
    if (raw === undefined || raw === null || raw === "") {
      if (rule.mandatory) return mandatory(rule.name);
      continue;
    }
    // The numeric fields take a JSON number (or digits); the Varchar ones a JSON string.
    if (NUMERIC.has(key) ? !(typeof raw === "string" || (typeof raw === "number" && Number.isSafeInteger(raw))) : typeof raw !== "string") return invalid(rule.name);
    const failure = checkField(rule, String(raw));
    if (failure) return failure;
  }
  return null;
}

export interface DoublePause {
  kind: "SIP" | "XSIP";
  regNo: string;
  clientCode: string;
  installments: number;
}

type Answer = { status?: number; body: unknown };

export class DoublePauses {
  /** The key the member was given (the double's environment's BSE_API_KEY). */
  apiKey = "double-api-key";
  /** Every request body received with the right key, in order. */
  readonly received: Array<Record<string, unknown>> = [];
  /** The pauses the double booked. */
  readonly pauses: DoublePause[] = [];
  /**
   * How many pauses a registration may have: the SIP master's PAUSE MODIFICATION COUNT (servicing.md), 1 for the
   * schemes the double lists. The document gives no error text; the refusal uses the exchange's `FAILED: ...` style.
   */
  pausesPerRegistration = 1;
  private readonly rejections: string[] = [];

  constructor(private readonly credentials: Credentials, server: DoubleServer, private readonly plans: DoublePlans) {
    server.json(PAUSE_SIP_PATH, (body, { headers }) => this.pause(body, headers[STP_API_KEY_HEADER]));
  }

  /** The next valid pause request is refused with `remark` (StatusFlag 1). */
  rejectNext(remark: string): void {
    this.rejections.push(remark);
  }

  private pause(body: unknown, apiKey: string | string[] | undefined): Answer {
    if (apiKey !== this.apiKey) return { status: 401, body: { Message: "Authorization has been denied for this request." } };
    if (typeof body === "object" && body !== null && !Array.isArray(body)) this.received.push(body as Record<string, unknown>);
    const b = (body ?? {}) as Record<string, unknown>;
    const regNo = typeof b.RegistrationNumber === "number" || (typeof b.RegistrationNumber === "string" && /^\d{1,15}$/.test(b.RegistrationNumber)) ? Number(b.RegistrationNumber) : 0;
    const reply = (flag: "0" | "1", remarks: string) => ({ body: { RegistrationNumber: regNo, BseRemarks: remarks, StatusFlag: flag, filler: "" } });
    const problem = validatePauseRequest(body);
    if (problem) return reply("1", problem);
    if (b.LoginId !== this.credentials.userId || b.MemberCode !== this.credentials.memberId || b.Password !== this.credentials.password) {
      return reply("1", "FAILED:INVALID ACCOUNT INFORMATION");
    }
    const kind = b.RegistrationType as "SIP" | "XSIP";
    const registration = this.plans.registrations.find((r) => r.kind === kind && r.regNo === String(regNo));
    if (!registration || registration.clientCode !== b.ClientCode) return reply("1", `FAILED: INVALID ${kind} REGISTRATION NUMBER`);
    if (registration.cancelled) return reply("1", `FAILED: ${kind} ALREADY CANCELLED`);
    const booked = this.pauses.filter((p) => p.kind === kind && p.regNo === registration.regNo).length;
    if (booked >= this.pausesPerRegistration) return reply("1", `FAILED: PAUSE LIMIT EXCEEDED FOR THIS ${kind} REGISTRATION`);
    const scripted = this.rejections.shift();
    if (scripted) return reply("1", scripted);
    this.pauses.push({ kind, regNo: registration.regNo, clientCode: registration.clientCode, installments: Number(b.NoOfInstalments) });
    return reply("0", "DATA SAVED SUCCESSFULLY");
  }
}
