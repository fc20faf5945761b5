import type { Log } from "../../../platform/lib/logger.js";
import { maskFreeText } from "../../../platform/lib/mask.js";
import type { OrderFailureCode } from "../outcomes.js";
import { ExchangeUnavailableError } from "../port.js";
import { failureCodeFor, providerRemark } from "./remarks.js";
import { isSessionRefusal } from "./sessions.js";

/**
 * The exchange refused a request for our login or our member/user (docs/operations.md "Refusals of the login or the
 * member"): "unavailable", so the job retries; nothing was created at the exchange, so a TransNo sent with it
 * is NOT_PLACED.
 */
export class BseRefusedError extends ExchangeUnavailableError {
  constructor(operation: string, message: string) {
    super(`BSE ${operation} refused: ${maskFreeText(message.trim() || "(no message)")}`);
    this.name = "BseRefusedError";
  }
}

/**
 * Texts that refuse the credentials a service takes in the body (password, API key, account information,
 * a locked login): the service's configuration, like a refused getPassword. A session refusal
 * (`INVALID ENCRYPTED PASSWORD`, `PASSWORD EXPIRED`) is not one: it logs in again (sessions.ts).
 */
const LOGIN_REFUSAL = /PASSWORD|PASS ?KEY|API ?KEY|LOGIN ATTEMPTS|ACCOUNT INFORMATION|ACCESS TEMPORARILY/i;

/** What a refusal text says about our side: a refused login, a refused member/user (the remark table's `member_not_permitted` rows), or neither. */
export function refusalOf(text: string): "login" | "member" | null {
  if (LOGIN_REFUSAL.test(text) && !isSessionRefusal(text)) return "login";
  return failureCodeFor(text) === "member_not_permitted" ? "member" : null;
}

/** An order request, or a registration (UCC, FATCA, mandates) or payment, which have no failure_code. */
export type RequestKind = "order" | "registration";

/**
 * The one rule for the exchange's refusals of our login or member, used by every service:
 * - a refused login (getPassword: BseLoginError, sessions.ts; or the credentials a service takes in the
 *   body) is "unavailable" everywhere: it is the service's configuration, not the request;
 * - an ORDER request (order entry, switch, SIP/XSIP, STP, SWP and their cancellations) refused for the
 *   member/user is REJECTED `member_not_permitted`, never retried (the distributor places it again once the
 *   operator has fixed the membership): this returns and the caller rejects it (`rejectedOrder`);
 * - a registration or payment refused for the member/user is "unavailable" (retried with backoff, logged at
 *   error with the remark each attempt), so a fixed configuration recovers without losing the request.
 * Any other text is the caller's to read.
 */
export function applyRefusalRule(request: RequestKind, operation: string, text: string, log?: Log): void {
  const refusal = refusalOf(text);
  if (refusal === null || (refusal === "member" && request === "order")) return;
  const error = new BseRefusedError(operation, text);
  log?.error({ operation, refusal, exchange_message: maskFreeText(text.trim()) }, `BSE refused our ${refusal === "login" ? "login" : "member or user"}; the request is retried`);
  throw error;
}

/** An order request the exchange refused: REJECTED with its (masked) remark and failure code, after the refusal rule. */
export function rejectedOrder(operation: string, remark: string, exchangeOrderNumber: string | null, log?: Log): { status: "REJECTED"; exchangeOrderNumber: string | null; remark: string; failureCode: OrderFailureCode } {
  applyRefusalRule("order", operation, remark, log);
  return { status: "REJECTED", exchangeOrderNumber, remark: providerRemark(remark) ?? "REJECTED BY THE EXCHANGE", failureCode: failureCodeFor(remark) };
}
