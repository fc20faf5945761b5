import type { SandboxExchange } from "../exchange/sandbox.js";
import { notFound } from "../lib/errors.js";
import { decideRegistration } from "../simulation/registration-decision.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
import { findMandate, getMandateState } from "./mandates.repo.js";
import { applyMandateRegistration } from "./mandates.service.js";

/**
 * Sandbox: the bank decides on a PENDING mandate; the service applies it as a status sync would. A
 * mandate that ends in the requested state (also when the registration job applied it first) answers success.
 */
export async function simulateMandateRegistration(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  mandateId: string,
  status: "REGISTERED" | "REJECTED",
  remark: string | undefined,
) {
  const mandate = await findMandate(services.prisma, caller.distributorId, mandateId);
  if (!mandate) throw notFound(`Mandate ${mandateId}`);
  const providerRemark = remark ?? (status === "REGISTERED" ? "SANDBOX: MANDATE APPROVED BY BANK" : "SANDBOX: MANDATE REJECTED BY BANK");
  const result = await decideRegistration({
    what: `Mandate ${mandateId}`,
    status: mandate.status,
    requested: status,
    decide: () => services.sandboxExchange.decide("MANDATE", mandateId, status, providerRemark),
    apply: (outcome) => applyMandateRegistration(services.prisma, mandateId, outcome),
    statusNow: async () => (await getMandateState(services.prisma, mandateId)).status,
  });
  return { success: true as const, message: `Mandate ${result === "already" ? "already " : ""}${status.toLowerCase()}`, data: mandateId };
}
