import type { BseContext } from "./bse-context.js";
import { isCancelKind, orderRefs } from "./order-refs.repo.js";
import type { PlanRequest } from "./plan-entry.js";
import { STP_API_KEY_HEADER } from "./systematic-transfers.js";

/** BSE's PauseSIP (bse-starmf-services.md section 10.1): a JSON POST with the API key header, credentials in the body. */
export const PAUSE_SIP_PATH = "/StarMFAPI/api/Pause/PauseSIP";

/**
 * Pauses the next `installments` installments of a SIP or XSIP registration the exchange accepted. The service
 * only pauses (its ModificationType is PAUSE): there is no resume. StatusFlag 0 is success, anything else a
 * refusal with BseRemarks.
 */
export async function pauseSipAtExchange(ctx: BseContext, orderId: string, installments: number): Promise<{ paused: true } | { paused: false; remark: string }> {
  const registration = (await orderRefs(ctx.db, orderId)).filter((ref) => !isCancelKind(ref.kind)).at(-1);
  if (!registration || registration.outcome !== "ACCEPTED" || !registration.exchangeOrderNumber) return { paused: false, remark: "NOT REGISTERED AT THE EXCHANGE" };
  if (registration.kind !== "SIP" && registration.kind !== "XSIP") return { paused: false, remark: "ONLY A SIP OR XSIP REGISTRATION CAN BE PAUSED" };
  const clientCode = (registration.request as PlanRequest | null)?.find(([name]) => name === "ClientCode")?.[1];
  if (!clientCode) throw new Error(`the ${registration.kind} registration ${registration.transNo} has no recorded client code`);
  const body = {
    LoginId: ctx.config.userId,
    MemberCode: ctx.config.memberId,
    Password: ctx.config.password,
    ClientCode: clientCode,
    RegistrationType: registration.kind,
    RegistrationNumber: Number(registration.exchangeOrderNumber),
    ModificationType: "PAUSE",
    NoOfInstalments: installments,
    filler1: "", filler2: "", filler3: "", filler4: "", filler5: "",
  };
  const answer = (await ctx.transport.json("PauseSIP", PAUSE_SIP_PATH, body, { [STP_API_KEY_HEADER]: ctx.config.apiKey })) as { StatusFlag?: unknown; BseRemarks?: unknown } | null;
  const remark = typeof answer?.BseRemarks === "string" && answer.BseRemarks.trim() ? answer.BseRemarks.trim() : null;
  if (String(answer?.StatusFlag ?? "") === "0") return { paused: true };
  return { paused: false, remark: remark ?? "PAUSE REFUSED" };
}
