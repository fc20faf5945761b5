import { maskFreeText } from "../../../platform/lib/mask.js";
import type { RegistrationOutcome, UccModification } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { fatcaParam } from "./fatca-param.js";
import { FATCA_DECLARATION_IP, mappingRemark, UCC_REGISTRATION_PATH } from "./investors.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG } from "./mfapi-params.js";
import { applyRefusalRule } from "./refusals.js";
import { buildUccRequest, readUccResponse } from "./ucc-param.js";

/**
 * A registered client's change: the enhanced UCC service with RegnType MOD (the whole record as it will be),
 * then, when the FATCA declaration (or the occupation it carries) changed, the FATCA upload again as a change
 * (C), declared now. The exchange answers at once, so the outcome is final (APPLIED or REJECTED upstream).
 */
export async function modifyClient(ctx: BseContext, change: UccModification): Promise<RegistrationOutcome> {
  const { ucc } = change;
  const credentials = { userId: ctx.config.userId, memberCode: ctx.config.memberId, password: ctx.config.password };
  let body: ReturnType<typeof buildUccRequest>;
  let fatca: string | null;
  try {
    body = buildUccRequest(credentials, "MOD", ucc);
    fatca = change.fatcaChanged ? fatcaParam(ucc, { declaredFromIp: FATCA_DECLARATION_IP, declaredAt: new Date(ctx.now()), newOrChange: "C" }) : null;
  } catch (error) {
    if (error instanceof BseMappingError) return { status: "REJECTED", remark: mappingRemark(error) };
    throw error;
  }
  const outcome = readUccResponse(await ctx.transport.json("UCC modification", UCC_REGISTRATION_PATH, body));
  ctx.log.info({ client_code: ucc.clientCode, regn_type: "MOD", status: outcome.status }, "BSE UCC modification answered");
  if (outcome.status === "REJECTED") {
    applyRefusalRule("registration", "UCC modification", outcome.remark, ctx.log);
    return { status: "REJECTED", remark: maskFreeText(outcome.remark) };
  }
  if (fatca !== null) {
    const answer = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.fatcaUpload, fatca);
    ctx.log.info({ client_code: ucc.clientCode, ok: answer.ok }, "BSE FATCA upload answered");
    if (!answer.ok) {
      applyRefusalRule("registration", "FATCA upload", answer.message, ctx.log);
      return { status: "REJECTED", remark: maskFreeText(`FATCA UPLOAD FAILED: ${answer.message || "no reason given"}`) };
    }
  }
  return { status: "REGISTERED", remark: outcome.remark === null ? null : maskFreeText(outcome.remark) };
}
