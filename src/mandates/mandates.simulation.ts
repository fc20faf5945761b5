import type { SandboxExchange } from "../exchange/sandbox.js";
import { invalidState, notFound } from "../lib/errors.js";
import type { Caller, Services } from "../trpc/context.js";
import { findMandate } from "./mandates.repo.js";
import { applyMandateRegistration } from "./mandates.service.js";

/** Sandbox: the bank decides on a PENDING mandate; the service applies it as a status sync would. */
export async function simulateMandateRegistration(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  mandateId: string,
  status: "REGISTERED" | "REJECTED",
  remark: string | undefined,
) {
  const mandate = await findMandate(services.prisma, caller.distributorId, mandateId);
  if (!mandate) throw notFound(`Mandate ${mandateId}`);
  if (mandate.status !== "PENDING") throw invalidState(`Mandate ${mandateId} is ${mandate.status}; only a PENDING mandate can be ${status.toLowerCase()}`);
  const providerRemark = remark ?? (status === "REGISTERED" ? "SANDBOX: MANDATE APPROVED BY BANK" : "SANDBOX: MANDATE REJECTED BY BANK");
  await services.sandboxExchange.set("MANDATE", mandateId, status, providerRemark);
  if (!(await applyMandateRegistration(services.prisma, mandateId, { status, remark: providerRemark }))) {
    throw invalidState(`Mandate ${mandateId} is no longer PENDING`);
  }
  return { success: true as const, message: `Mandate ${status.toLowerCase()}`, data: mandateId };
}
