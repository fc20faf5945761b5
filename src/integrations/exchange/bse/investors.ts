import { maskFreeText } from "../../../platform/lib/mask.js";
import type { RegistrationOutcome, UccRegistration } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { fatcaParam } from "./fatca-param.js";
import { investorCreatedAt } from "./lookups.repo.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG } from "./mfapi-params.js";
import { buildUccRequest, readUccResponse } from "./ucc-param.js";
import { applyRefusalRule } from "./refusals.js";

export const UCC_REGISTRATION_PATH = "/StarMFCommonAPI/ClientMaster/Registration";

/**
 * The exchange already has this client code: a NEW registration is refused with a text like this (the
 * document names none; the double answers `FAILED: CLIENT CODE ALREADY EXISTS`), and the same
 * registration is sent again as MOD. Confirm the exchange's text in UAT.
 */
export const ALREADY_REGISTERED = /CLIENT( CODE)? ALREADY (EXISTS?|REGISTERED)|DUPLICATE CLIENT CODE/i;

/**
 * The LOG_NAME of the FATCA record wants the declaration's IP address: the investor's declaration
 * reaches the service through the distributor's server, so the service never sees the investor's
 * address, and says so with the unspecified address (an open point for UAT).
 */
export const FATCA_DECLARATION_IP = "0.0.0.0";

/**
 * Enhanced UCC registration, then the FATCA upload (bse-starmf-services.md §3, §4). NEW first; a NEW the
 * exchange refuses because it already has the client code (a retry after a crash, a re-registration)
 * goes again as MOD, and its FATCA record is a change (C). A value the exchange cannot carry is
 * REJECTED with the field named, before anything is sent; a refusal of our login or member is
 * "unavailable" (refusals.ts), so the job retries once the configuration is fixed. The outcome is final (REGISTERED or
 * REJECTED): the exchange has no status call for a UCC.
 */
export async function registerClient(ctx: BseContext, ucc: UccRegistration): Promise<RegistrationOutcome> {
  const declaredAt = (await investorCreatedAt(ctx.db, ucc.clientCode)) ?? new Date(ctx.now());
  const credentials = { userId: ctx.config.userId, memberCode: ctx.config.memberId, password: ctx.config.password };
  let fatcaNew: string;
  let fatcaChange: string;
  let bodyNew: ReturnType<typeof buildUccRequest>;
  try {
    bodyNew = buildUccRequest(credentials, "NEW", ucc);
    const context = { declaredFromIp: FATCA_DECLARATION_IP, declaredAt };
    fatcaNew = fatcaParam(ucc, { ...context, newOrChange: "N" });
    fatcaChange = fatcaParam(ucc, { ...context, newOrChange: "C" });
  } catch (error) {
    if (error instanceof BseMappingError) return { status: "REJECTED", remark: mappingRemark(error) };
    throw error;
  }

  let regnType: "NEW" | "MOD" = "NEW";
  let outcome = readUccResponse(await ctx.transport.json("UCC registration", UCC_REGISTRATION_PATH, bodyNew));
  if (outcome.status === "REJECTED" && ALREADY_REGISTERED.test(outcome.remark)) {
    regnType = "MOD";
    outcome = readUccResponse(await ctx.transport.json("UCC registration", UCC_REGISTRATION_PATH, { ...bodyNew, RegnType: "MOD" }));
  }
  ctx.log.info({ client_code: ucc.clientCode, regn_type: regnType, status: outcome.status }, "BSE UCC registration answered");
  if (outcome.status === "REJECTED") {
    applyRefusalRule("registration", "UCC registration", outcome.remark, ctx.log);
    return { status: "REJECTED", remark: maskFreeText(outcome.remark) };
  }

  const fatca = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.fatcaUpload, regnType === "NEW" ? fatcaNew : fatcaChange);
  ctx.log.info({ client_code: ucc.clientCode, ok: fatca.ok }, "BSE FATCA upload answered");
  if (!fatca.ok) {
    applyRefusalRule("registration", "FATCA upload", fatca.message, ctx.log);
    return { status: "REJECTED", remark: maskFreeText(`FATCA UPLOAD FAILED: ${fatca.message || "no reason given"}`) };
  }
  return { status: "REGISTERED", remark: outcome.remark === null ? null : maskFreeText(outcome.remark) };
}

/** A BseMappingError as a remark: the field and why, never the value (it may be an account number). */
export function mappingRemark(error: BseMappingError): string {
  const reason = error.message.slice(`${error.field}: ${JSON.stringify(error.value)} `.length);
  return `NOT SENT TO THE EXCHANGE: ${error.field} ${reason}`;
}
