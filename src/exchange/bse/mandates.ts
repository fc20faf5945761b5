import { INDIA_OFFSET_MS, todayInIndia } from "../../lib/india-date.js";
import { maskFreeText } from "../../lib/mask.js";
import { ExchangeUnavailableError, type MandateRegistration, type RegistrationOutcome } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { bseDate } from "./format.js";
import { mappingRemark } from "./investors.js";
import { mandateAtExchange } from "./lookups.repo.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG, mandateIdFrom, mandateRegistrationParam } from "./mfapi-params.js";
import { randomPassKey } from "./sessions.js";
import { CREDENTIAL_FAILURE, callWebService, credentialFailure, listOf, statusOf, textOf } from "./web-service.js";

type MandateOutcome = RegistrationOutcome & { exchangeMandateId: string | null };

/**
 * Mandate registration, MFAPI flag 06 (bse-starmf-services.md §2.1). The exchange answers the mandate id
 * at once, but the mandate is only usable once the bank approves it (e-NACH authentication, or the
 * physical form), so a registered mandate stays PENDING with its exchange id until `mandateStatus` sees
 * it APPROVED. A mandate that already has an exchange id is not registered twice.
 */
export async function registerMandateAtExchange(ctx: BseContext, mandate: MandateRegistration): Promise<MandateOutcome> {
  const known = await mandateAtExchange(ctx.db, mandate.mandateId);
  if (known?.exchangeMandateId) return { status: "PENDING", remark: null, exchangeMandateId: known.exchangeMandateId };
  let param: string;
  try {
    param = mandateRegistrationParam(mandate);
  } catch (error) {
    if (error instanceof BseMappingError) return { status: "REJECTED", remark: mappingRemark(error), exchangeMandateId: null };
    throw error;
  }
  const result = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.mandateRegistration, param);
  ctx.log.info({ mandate_id: mandate.mandateId, ok: result.ok }, "BSE mandate registration answered");
  if (!result.ok) {
    if (result.kind === "credentials") throw credentialFailure("mandate registration", result.message);
    return { status: "REJECTED", remark: maskFreeText(result.message || "MANDATE REGISTRATION REJECTED"), exchangeMandateId: null };
  }
  const exchangeMandateId = mandateIdFrom(result.message);
  if (!exchangeMandateId) throw new ExchangeUnavailableError("BSE mandate registration: the answer carries no mandate id");
  return { status: "PENDING", remark: maskFreeText(result.message) || null, exchangeMandateId };
}

/** §6.3's status texts: APPROVED is registered; the REJECT... ones and CANCELLED BY INVESTOR are final refusals; anything else is in progress. */
export function mandateOutcomeOf(status: string, remark: string): RegistrationOutcome {
  const text = status.trim().toUpperCase();
  if (text === "APPROVED") return { status: "REGISTERED", remark: remark || null };
  if (/REJECT/.test(text) || text === "CANCELLED BY INVESTOR") return { status: "REJECTED", remark: remark ? `${text}: ${remark}` : text };
  return { status: "PENDING", remark: text || null };
}

/**
 * The mandate status API (§6.1-6.3): GetAccessToken (request type MANDATE), then MandateDetailsRequest
 * for the client and mandate id, from the day before the mandate was created to today (India). A stale
 * token (`FAILED: ACCESS TOKEN EXPIRED`) is renewed once. A mandate not yet registered at the exchange,
 * or not in the answer, is PENDING.
 */
export async function mandateStatusAtExchange(ctx: BseContext, mandateId: string): Promise<RegistrationOutcome> {
  const known = await mandateAtExchange(ctx.db, mandateId);
  if (!known?.exchangeMandateId) return { status: "PENDING", remark: null };
  const fromDate = bseDate("fromDate", new Date(known.createdAt.getTime() + INDIA_OFFSET_MS - 86_400_000).toISOString().slice(0, 10));
  const request = (token: string) => ({
    FromDate: fromDate,
    ToDate: bseDate("toDate", todayInIndia(new Date(ctx.now()))),
    MemberCode: ctx.config.memberId,
    ClientCode: known.clientCode,
    MandateId: known.exchangeMandateId,
    EncryptedPassword: token,
  });
  let answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "MandateDetails", request(await accessToken(ctx)));
  if (statusOf("MandateDetails", answer) === "101" && /ACCESS TOKEN EXPIRED/i.test(textOf(answer.Message))) {
    answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "MandateDetails", request(await accessToken(ctx)));
  }
  const message = textOf(answer.Message);
  if (statusOf("MandateDetails", answer) === "101") {
    if (/INVALID MANDATE ID|INVALID CLIENT CODE/i.test(message)) return { status: "REJECTED", remark: maskFreeText(message) };
    if (CREDENTIAL_FAILURE.test(message)) throw credentialFailure("mandate status", message);
    throw new ExchangeUnavailableError(`BSE mandate status failed: ${maskFreeText(message || "(no message)")}`);
  }
  const details = listOf(answer.MandateDetails, "MandateDetails");
  const row = details.find((d) => textOf(d.MandateId) === known.exchangeMandateId);
  if (!row) return { status: "PENDING", remark: null };
  const outcome = mandateOutcomeOf(textOf(row.Status), textOf(row.Remarks));
  return { ...outcome, remark: maskFreeText(outcome.remark) } as RegistrationOutcome;
}

/** GetAccessToken (§6.1): a fresh token per status check (the document gives no lifetime). */
async function accessToken(ctx: BseContext): Promise<string> {
  const answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "GetAccessToken", {
    RequestType: "MANDATE",
    UserId: ctx.config.userId,
    MemberId: ctx.config.memberId,
    Password: ctx.config.password,
    PassKey: ctx.config.passKey ?? randomPassKey(),
  });
  const text = textOf(answer.ResponseString);
  if (statusOf("GetAccessToken", answer) === "100" && text !== "") return text;
  throw credentialFailure("GetAccessToken", statusOf("GetAccessToken", answer) === "101" ? text : "unexpected answer");
}

/**
 * The e-NACH authentication URL (§6.4) of a mandate registered at the exchange: where the investor
 * authorises an ENACH mandate with the bank. Null when the mandate has no exchange id yet, or the
 * exchange has no URL for it (ENACHURL NOT GENERATED, another client's or member's mandate).
 */
export async function mandateAuthUrlAtExchange(ctx: BseContext, mandateId: string): Promise<string | null> {
  const known = await mandateAtExchange(ctx.db, mandateId);
  if (!known?.exchangeMandateId) return null;
  const answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "EMandateAuthURL", {
    UserId: ctx.config.userId,
    MemberCode: ctx.config.memberId,
    Password: ctx.config.password,
    ClientCode: known.clientCode,
    MandateID: known.exchangeMandateId,
  });
  const text = textOf(answer.ResponseString);
  if (statusOf("EMandateAuthURL", answer) === "100") {
    if (!/^https:\/\//i.test(text) && !/^http:\/\//i.test(text)) throw new ExchangeUnavailableError("BSE EMandateAuthURL: the answer is not a URL");
    return text;
  }
  if (/^FAILED:/i.test(text) && CREDENTIAL_FAILURE.test(text)) throw credentialFailure("EMandateAuthURL", text);
  ctx.log.info({ mandate_id: mandateId, exchange_message: maskFreeText(text) }, "BSE has no e-NACH authentication URL for the mandate");
  return null;
}
