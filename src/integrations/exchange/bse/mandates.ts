import { INDIA_OFFSET_MS, todayInIndia } from "../../../platform/lib/india-date.js";
import { maskFreeText } from "../../../platform/lib/mask.js";
import { ExchangeUnavailableError, type MandateRegistration, type RegistrationOutcome } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { bseDate, MONTHS, plainDecimal } from "./format.js";
import { mappingRemark } from "./investors.js";
import { mandateAtExchange } from "./lookups.repo.js";
import { exchangeMandateIdsTaken, mandateRegistrationSent, recordMandateAnswer, recordMandateSending } from "./mandate-registrations.repo.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG, mandateIdFrom, mandateRegistrationParam } from "./mfapi-params.js";
import { randomPassKey } from "./sessions.js";
import { applyRefusalRule, BseRefusedError } from "./refusals.js";
import { callWebService, listOf, statusOf, textOf } from "./web-service.js";

type MandateOutcome = RegistrationOutcome & { exchangeMandateId: string | null };

/** The remark of a mandate found at the exchange after its registration's answer was lost. */
export const FOUND_AFTER_LOST_ANSWER = "REGISTRATION FOUND AT THE EXCHANGE AFTER ITS ANSWER WAS LOST";

/**
 * Mandate registration, MFAPI flag 06 (bse-starmf-services.md §2.1). The exchange answers the mandate id
 * at once, but the mandate is only usable once the bank approves it (e-NACH authentication, or the
 * physical form), so a registered mandate stays PENDING with its exchange id until `mandateStatus` sees
 * it APPROVED. A mandate that already has an exchange id is not registered twice.
 *
 * The registration is recorded before it goes and answered after (`bse_mandate_registrations`). One sent
 * without an answer (a timeout, a reset, a malformed answer) may be at the exchange: before sending it
 * again, the client's mandates are read from the status API, and one matching ours (amount, bank account,
 * registered since we sent, not another mandate of ours) is adopted; none, it goes again.
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
  const earlier = await mandateRegistrationSent(ctx.db, mandate.mandateId);
  if (earlier?.exchangeMandateId) return { status: "PENDING", remark: null, exchangeMandateId: earlier.exchangeMandateId };
  if (earlier && earlier.answeredAt === null) {
    const found = await findLostRegistration(ctx, mandate, earlier.sentAt, known?.createdAt ?? earlier.sentAt);
    if (found) return found;
  }

  await recordMandateSending(ctx.db, mandate.mandateId, new Date(ctx.now()));
  const result = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.mandateRegistration, param);
  ctx.log.info({ mandate_id: mandate.mandateId, ok: result.ok }, "BSE mandate registration answered");
  if (!result.ok) {
    // A refused registration created nothing: a retry sends it again without looking for it.
    await recordMandateAnswer(ctx.db, mandate.mandateId, null, new Date(ctx.now()));
    applyRefusalRule("registration", "mandate registration", result.message, ctx.log);
    return { status: "REJECTED", remark: maskFreeText(result.message || "MANDATE REGISTRATION REJECTED"), exchangeMandateId: null };
  }
  const exchangeMandateId = mandateIdFrom(result.message);
  if (!exchangeMandateId) throw new ExchangeUnavailableError("BSE mandate registration: the answer carries no mandate id");
  await recordMandateAnswer(ctx.db, mandate.mandateId, exchangeMandateId, new Date(ctx.now()));
  return { status: "PENDING", remark: maskFreeText(result.message) || null, exchangeMandateId };
}

/**
 * The mandate a registration sent without an answer created at the exchange, or null when it has none:
 * the client's mandates registered from the day before we sent to today, with our amount and bank
 * account, registered on or after the day we sent, and held by no other mandate of ours. Adopted, it is
 * recorded as the registration's answer.
 */
async function findLostRegistration(ctx: BseContext, mandate: MandateRegistration, sentAt: Date, createdAt: Date): Promise<MandateOutcome | null> {
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await mandateDetails(ctx, { clientCode: mandate.clientCode, exchangeMandateId: "", since: createdAt < sentAt ? createdAt : sentAt });
  } catch (error) {
    if (!(error instanceof MandateRefused)) throw error;
    rows = []; // the exchange has no mandate for this client
  }
  const sentDay = todayInIndia(sentAt);
  const candidates = rows.filter(
    (row) =>
      plainDecimal(textOf(row.Amount) || "0") === plainDecimal(mandate.amountLimit) &&
      sameAccount(textOf(row.BankAccNo), mandate.bank.accountNumber) &&
      (registrationDay(textOf(row.RegnDate)) ?? sentDay) >= sentDay,
  );
  const taken = await exchangeMandateIdsTaken(ctx.db, candidates.map((row) => textOf(row.MandateId)), mandate.mandateId);
  const ours = candidates.filter((row) => !taken.has(textOf(row.MandateId)));
  ctx.log.info({ mandate_id: mandate.mandateId, matching: ours.length }, "BSE mandate registration sent without an answer: looked for at the exchange");
  const row = ours[0];
  if (!row) return null;
  const exchangeMandateId = textOf(row.MandateId);
  await recordMandateAnswer(ctx.db, mandate.mandateId, exchangeMandateId, new Date(ctx.now()));
  const status = textOf(row.Status).trim().toUpperCase();
  return { status: "PENDING", remark: maskFreeText(status ? `${FOUND_AFTER_LOST_ANSWER}: ${status}` : FOUND_AFTER_LOST_ANSWER), exchangeMandateId };
}

/** The status API may show the account in full or masked (`XXXXXXXX5678`): masked, its last four digits decide. */
function sameAccount(shown: string, ours: string): boolean {
  const text = shown.trim();
  if (/^\d+$/.test(text)) return text === ours;
  const visible = text.replace(/\D/g, "");
  return visible.length >= 4 && ours.endsWith(visible.slice(-4));
}


/** `MMM DD YYYY HH:MM...` (§6.3's RegnDate) as YYYY-MM-DD, or null when it reads otherwise. */
function registrationDay(text: string): string | null {
  const match = /^([A-Za-z]{3})\s+(\d{1,2})\s+(\d{4})/.exec(text.trim());
  const month = match ? (MONTHS as readonly string[]).indexOf(match[1]!.toUpperCase()) : -1;
  if (!match || month < 0) return null;
  return `${match[3]}-${String(month + 1).padStart(2, "0")}-${match[2]!.padStart(2, "0")}`;
}

/** §6.3's status texts: APPROVED is registered; the REJECT... ones and CANCELLED BY INVESTOR are final refusals; anything else is in progress. */
export function mandateOutcomeOf(status: string, remark: string): RegistrationOutcome {
  const text = status.trim().toUpperCase();
  if (text === "APPROVED") return { status: "REGISTERED", remark: remark || null };
  if (/REJECT/.test(text) || text === "CANCELLED BY INVESTOR") return { status: "REJECTED", remark: remark ? `${text}: ${remark}` : text };
  return { status: "PENDING", remark: text || null };
}

/**
 * The mandate status API (§6.1-6.3): GetAccessToken (request type MANDATE), then MandateDetails
 * for the client and mandate id, from the day before the mandate was created to today (India). A stale
 * token (`FAILED: ACCESS TOKEN EXPIRED`) is renewed once. A mandate not yet registered at the exchange,
 * or not in the answer, is PENDING.
 */
export async function mandateStatusAtExchange(ctx: BseContext, mandateId: string): Promise<RegistrationOutcome> {
  const known = await mandateAtExchange(ctx.db, mandateId);
  if (!known?.exchangeMandateId) return { status: "PENDING", remark: null };
  let details: Array<Record<string, unknown>>;
  try {
    details = await mandateDetails(ctx, { clientCode: known.clientCode, exchangeMandateId: known.exchangeMandateId, since: known.createdAt });
  } catch (error) {
    if (error instanceof MandateRefused) return { status: "REJECTED", remark: maskFreeText(error.message) };
    throw error;
  }
  const row = details.find((d) => textOf(d.MandateId) === known.exchangeMandateId);
  if (!row) return { status: "PENDING", remark: null };
  const outcome = mandateOutcomeOf(textOf(row.Status), textOf(row.Remarks));
  return { ...outcome, remark: maskFreeText(outcome.remark) } as RegistrationOutcome;
}

/** The status API's final word on a mandate id or client (`INVALID MANDATE ID`, `INVALID CLIENT CODE ...`). */
class MandateRefused extends Error {}

/**
 * MandateDetails (§6.2) for a client (all its mandates when `exchangeMandateId` is empty) from the day
 * before `since` to today, India. A stale token is renewed once; an unknown mandate id or client is
 * MandateRefused; any other refusal is unavailable.
 */
async function mandateDetails(ctx: BseContext, query: { clientCode: string; exchangeMandateId: string; since: Date }): Promise<Array<Record<string, unknown>>> {
  const fromDate = bseDate("fromDate", new Date(query.since.getTime() + INDIA_OFFSET_MS - 86_400_000).toISOString().slice(0, 10));
  const request = (token: string) => ({
    FromDate: fromDate,
    ToDate: bseDate("toDate", todayInIndia(new Date(ctx.now()))),
    MemberCode: ctx.config.memberId,
    ClientCode: query.clientCode,
    MandateId: query.exchangeMandateId,
    EncryptedPassword: token,
  });
  let answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "MandateDetails", request(await accessToken(ctx)));
  if (statusOf("MandateDetails", answer) === "101" && /ACCESS TOKEN EXPIRED/i.test(textOf(answer.Message))) {
    answer = await callWebService(ctx.transport, ctx.webServiceStyle.mandates, "MandateDetails", request(await accessToken(ctx)));
  }
  const message = textOf(answer.Message);
  if (statusOf("MandateDetails", answer) === "101") {
    if (/INVALID MANDATE ID|INVALID CLIENT CODE/i.test(message)) throw new MandateRefused(message);
    applyRefusalRule("registration", "mandate status", message, ctx.log);
    throw new ExchangeUnavailableError(`BSE mandate status failed: ${maskFreeText(message || "(no message)")}`);
  }
  return listOf(answer.MandateDetails, "MandateDetails");
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
  // A refused token request is a refused login: unavailable, whatever it names.
  throw new BseRefusedError("GetAccessToken", statusOf("GetAccessToken", answer) === "101" ? text : "unexpected answer");
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
  applyRefusalRule("registration", "EMandateAuthURL", text, ctx.log);
  ctx.log.info({ mandate_id: mandateId, exchange_message: maskFreeText(text) }, "BSE has no e-NACH authentication URL for the mandate");
  return null;
}
