import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { decideRegistration } from "../shared/registration-decision.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { findMandate } from "./mandates.repo.js";
import { applyMandateRegistration } from "./mandates.service.js";

const REMARKS = { REGISTERED: "SANDBOX: MANDATE APPROVED BY BANK", REJECTED: "SANDBOX: MANDATE REJECTED BY BANK" } as const;

/** Sandbox: the bank decides on a PENDING mandate; the service applies it as a status sync would. */
export function simulateMandateRegistration(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  mandateId: string,
  status: keyof typeof REMARKS,
  remark: string | undefined,
) {
  return decideRegistration({
    noun: "Mandate",
    id: mandateId,
    requested: status,
    find: () => findMandate(services.prisma, caller.distributorId, mandateId),
    decide: () => services.sandboxExchange.decide("MANDATE", mandateId, status, remark ?? REMARKS[status]),
    apply: (outcome) => applyMandateRegistration(services.prisma, mandateId, outcome),
  });
}
