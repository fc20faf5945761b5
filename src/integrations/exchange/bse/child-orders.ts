import type { Log } from "../../../platform/lib/logger.js";
import { maskFreeText } from "../../../platform/lib/mask.js";
import { ExchangeUnavailableError } from "../port.js";
import { MONTHS } from "./format.js";
import { nodeText } from "./soap.js";
import { DEFAULT_TIMING, isSessionRefusal, randomPassKey, refusedLoginMessage, type BseCredentials } from "./sessions.js";
import { callWebService, listOf, WEB_SERVICE_STYLE, type WebServiceStyle } from "./web-service.js";
import type { BseTransport } from "./transport.js";

/**
 * The child order details API (bse-starmf-services.md §7) on the web service: its own login
 * (GetPasswordForChildOrder, a PasswordRequest contract answered by a Response contract), then
 * ChildOrderDetails for a registration on a day (SOAP data contracts or JSON: web-service.ts), answering the installment orders the exchange generated.
 * The session is kept for the 5 minutes the document gives the services other than order entry (renewed a
 * minute before), and renewed once when the exchange refuses it.
 */

/** The document's 5 minutes for the services other than order entry, renewed as the upload service's session is. */
const LIFETIME_MS = DEFAULT_TIMING.lifetimeMs.upload;
const MARGIN_MS = DEFAULT_TIMING.marginMs.upload;

export type SystematicPlanType = "SIP" | "XSIP" | "ISIP" | "STP" | "SWP";

export interface ChildOrder {
  orderNumber: string;
  buySell: "P" | "R";
  amount: string;
  units: string;
}

/** `07 JUL 2017` from `2017-07-07`. */
export const childOrderDate = (iso: string) => `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

export class ChildOrdersApi {
  private session: { encrypted: string; expiresAt: number } | null = null;

  constructor(
    private readonly transport: BseTransport,
    private readonly who: BseCredentials,
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
      const status = nodeText(result?.Status);
      const message = nodeText(result?.Message);
      if (status === "100") return readChildOrders(result?.ChildOrderDetails);
      if (status === "101" && isSessionRefusal(message) && attempt === 1) {
        this.session = null;
        continue;
      }
      if (status === "101" && /NO (DATA|RECORDS?|CHILD ORDERS?)( FOUND)?/i.test(message)) return [];
      throw new ExchangeUnavailableError(`BSE ChildOrderDetails: ${maskFreeText(message) || `unexpected status ${JSON.stringify(status.slice(0, 10))}`}`);
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
    const status = nodeText(result?.Status);
    const answer = nodeText(result?.ResponseString);
    if (status !== "100" || answer === "") {
      const message = refusedLoginMessage(status, answer);
      this.log.warn({ service: "child-orders", exchange_message: message }, "BSE login failed");
      throw new ExchangeUnavailableError(`BSE child order login failed: ${message}`);
    }
    this.session = { encrypted: answer, expiresAt: startedAt + LIFETIME_MS };
    return answer;
  }
}

function readChildOrders(list: unknown): ChildOrder[] {
  return listOf(list, "ChildOrderDetails").flatMap((f): ChildOrder[] => {
    const orderNumber = nodeText(f.OrderNumber).trim();
    const buySell = nodeText(f.BuySell).trim().toUpperCase();
    if (!/^[1-9]\d*$/.test(orderNumber) || (buySell !== "P" && buySell !== "R")) return [];
    return [{ orderNumber, buySell, amount: nodeText(f.Amount).trim(), units: nodeText(f.Quantity).trim() }];
  });
}
