import type { Log } from "../../lib/logger.js";
import { ExchangeUnavailableError } from "../port.js";
import { randomPassKey, isSessionRefusal } from "./sessions.js";
import { callWebService, listOf, WEB_SERVICE_STYLE, type WebServiceStyle } from "./web-service.js";
import type { BseTransport } from "./transport.js";

/**
 * The child order details API (bse-starmf-services.md §7) on the web service: its own login
 * (GetPasswordForChildOrder, a PasswordRequest contract answered by a Response contract), then
 * ChildOrderDetails for a registration on a day (SOAP data contracts or JSON: web-service.ts), answering the installment orders the exchange generated.
 * The session is kept for the 5 minutes the document gives the services other than order entry (renewed a
 * minute before), and renewed once when the exchange refuses it.
 */

const LIFETIME_MS = 5 * 60_000;
const MARGIN_MS = 60_000;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export type SystematicPlanType = "SIP" | "XSIP" | "ISIP" | "STP" | "SWP";

export interface ChildOrder {
  orderNumber: string;
  buySell: "P" | "R";
  amount: string;
  units: string;
}

export interface ChildOrderCredentials {
  userId: string;
  memberId: string;
  password: string;
  passKey: string | undefined;
}

/** `07 JUL 2017` from `2017-07-07`. */
export const childOrderDate = (iso: string) => `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

export class ChildOrdersApi {
  private session: { encrypted: string; expiresAt: number } | null = null;

  constructor(
    private readonly transport: BseTransport,
    private readonly who: ChildOrderCredentials,
    private readonly log: Log,
    private readonly now: () => number,
    private readonly style: WebServiceStyle = WEB_SERVICE_STYLE.childOrders,
  ) {}

  /** The exchange's child orders of one registration on one day (YYYY-MM-DD). */
  async childOrders(query: { clientCode: string; planType: SystematicPlanType; registrationNo: string; date: string }): Promise<ChildOrder[]> {
    for (let attempt = 1; ; attempt++) {
      const encrypted = await this.encryptedPassword();
      const result = await callWebService(this.transport, this.style, "ChildOrderDetails", {
        ClientCode: query.clientCode,
        Date: childOrderDate(query.date),
        EncryptedPassword: encrypted,
        MemberCode: this.who.memberId,
        RegnNo: query.registrationNo,
        SystematicPlanType: query.planType,
      });
      const status = text(result?.Status);
      const message = text(result?.Message);
      if (status === "100") return readChildOrders(result?.ChildOrderDetails);
      if (status === "101" && isSessionRefusal(message) && attempt === 1) {
        this.session = null;
        continue;
      }
      if (status === "101" && /NO (DATA|RECORDS?|CHILD ORDERS?)( FOUND)?/i.test(message)) return [];
      throw new ExchangeUnavailableError(`BSE ChildOrderDetails: ${message || `unexpected status ${JSON.stringify(status.slice(0, 10))}`}`);
    }
  }

  private async encryptedPassword(): Promise<string> {
    if (this.session && this.session.expiresAt - MARGIN_MS > this.now()) return this.session.encrypted;
    const startedAt = this.now();
    const result = await callWebService(this.transport, this.style, "GetPasswordForChildOrder", {
      MemberId: this.who.memberId,
      PassKey: this.who.passKey ?? randomPassKey(),
      Password: this.who.password,
      RequestType: null,
      UserId: this.who.userId,
    });
    const status = text(result?.Status);
    const answer = text(result?.ResponseString);
    if (status !== "100" || answer === "") {
      // Never echo an unexpected answer: it could be a session token.
      const message = status === "101" ? answer.trim() || "(no message)" : "unexpected answer";
      this.log.warn({ service: "child-orders", exchange_message: message }, "BSE login failed");
      throw new ExchangeUnavailableError(`BSE child order login failed: ${message}`);
    }
    this.session = { encrypted: answer, expiresAt: startedAt + LIFETIME_MS };
    return answer;
  }
}

function readChildOrders(list: unknown): ChildOrder[] {
  return listOf(list, "ChildOrderDetails").flatMap((f): ChildOrder[] => {
    const orderNumber = text(f.OrderNumber).trim();
    const buySell = text(f.BuySell).trim().toUpperCase();
    if (!/^[1-9]\d*$/.test(orderNumber) || (buySell !== "P" && buySell !== "R")) return [];
    return [{ orderNumber, buySell, amount: text(f.Amount).trim(), units: text(f.Quantity).trim() }];
  });
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  const inner = asObject(value)?.["#text"];
  return typeof inner === "string" ? inner : "";
}
