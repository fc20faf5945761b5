import { randomBytes } from "node:crypto";
import { fieldProblem, readFields, type FieldSpec } from "./fields.js";
import type { DoubleServer } from "./server.js";

/**
 * The exchange's logins (bse-starmf-orders.md §2, bse-starmf-services.md §1.1): getPassword on the order
 * service (UserId, Password, PassKey; a 1-hour session) and on the upload service (UserId, MemberId,
 * Password, PassKey; 5 minutes). Each answers `100|<encrypted password>` (new at every login) or
 * `101|<message>` with the document's login error texts. Calls check the encrypted password: one it never
 * issued is `INVALID ENCRYPTED PASSWORD`, one past its life `PASSWORD EXPIRED`.
 */

export const ORDER_PATH = "/MFOrderEntry/MFOrder.svc/Secure";
export const UPLOAD_PATH = "/MFUploadService/MFUploadService.svc/Secure";
export const ORDER_ACTION = (op: string) => `http://bsestarmf.in/MFOrderEntry/${op}`;
export const UPLOAD_ACTION = (op: string) => `http://bsestarmfdemo.bseindia.com/2016/01/IMFUploadService/${op}`;

export type SessionService = "order" | "upload";

export interface Credentials {
  userId: string;
  memberId: string;
  password: string;
}

const LIFETIME_MS: Record<SessionService, number> = { order: 60 * 60_000, upload: 5 * 60_000 };
const PASSKEY = /^[A-Za-z0-9]+$/;

const ORDER_LOGIN: readonly FieldSpec[] = [
  { name: "UserId", max: 10 },
  { name: "Password", max: 20 },
  { name: "PassKey", max: 10 },
];
const UPLOAD_LOGIN: readonly FieldSpec[] = [
  { name: "UserId", max: 20 },
  { name: "MemberId", max: 20 },
  { name: "Password", max: 30 },
  { name: "PassKey", max: 10 },
];

interface Session {
  service: SessionService;
  passKey: string;
  expiresAt: number;
}

export class DoubleSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly scriptedLoginFailures: string[] = [];
  /** Logins answered 100, per service. */
  readonly logins: Record<SessionService, number> = { order: 0, upload: 0 };
  /** Every password and encrypted password the double has seen, so tests can look for them in logs. */
  readonly issued: string[] = [];

  constructor(private readonly credentials: Credentials, server: DoubleServer, private readonly now: () => number = Date.now) {
    server.soap(ORDER_PATH, ORDER_ACTION("getPassword"), ({ params }) => this.login("order", ORDER_LOGIN, params));
    server.soap(UPLOAD_PATH, UPLOAD_ACTION("getPassword"), ({ params }) => this.login("upload", UPLOAD_LOGIN, params));
    server.onExpireSessions(() => this.expireAll());
  }

  /** The next login answers `101|message` (USER IS DISABLED. CONTACT ADMIN, ...). */
  failNextLogin(message: string): void {
    this.scriptedLoginFailures.push(message);
  }

  /** Every session issued so far lapses now. */
  expireAll(): void {
    for (const session of this.sessions.values()) session.expiresAt = this.now() - 1;
  }

  /** Null when `encrypted` is a live session of `service` (with the login's pass key), else the exchange's message. */
  check(service: SessionService, encrypted: string, passKey: string | undefined): string | null {
    const session = this.sessions.get(encrypted);
    if (!session || session.service !== service) return "INVALID ENCRYPTED PASSWORD";
    if (session.expiresAt <= this.now()) return "PASSWORD EXPIRED";
    if (passKey !== undefined && passKey !== session.passKey) return "PASSWORD EXPIRED";
    return null;
  }

  private login(service: SessionService, specs: readonly FieldSpec[], params: Array<[string, string]>): string {
    const values = readFields(specs, params);
    const blank = [
      ["UserId", "USER ID SHOULD NOT BE BLANK"],
      ["MemberId", "MEMBER ID SHOULD NOT BE BLANK"],
      ["Password", "PASSWORD SHOULD NOT BE BLANK"],
      ["PassKey", "PASSKEY SHOULD NOT BE BLANK"],
    ].find(([name]) => values.has(name!) && values.get(name!) === "");
    if (blank) return `101|${blank[1]}`;
    const scripted = this.scriptedLoginFailures.shift();
    if (scripted) return `101|${scripted}`;
    if (fieldProblem(specs, values) || !PASSKEY.test(values.get("PassKey")!)) return "101|INVALID ACCOUNT INFORMATION";
    if (values.get("UserId") !== this.credentials.userId) return "101|INVALID USER ID";
    if (values.has("MemberId") && values.get("MemberId") !== this.credentials.memberId) return "101|INVALID ACCOUNT INFORMATION";
    if (values.get("Password") !== this.credentials.password) return "101|INVALID ACCOUNT INFORMATION";
    const encrypted = randomBytes(30).toString("base64");
    this.sessions.set(encrypted, { service, passKey: values.get("PassKey")!, expiresAt: this.now() + LIFETIME_MS[service] });
    this.issued.push(encrypted);
    this.logins[service] += 1;
    return `100|${encrypted}`;
  }
}
