import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { decideRegistration } from "../shared/registration-decision.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { findInvestor } from "./investors.repo.js";
import { applyRegistration } from "./lifecycle.js";
import { applyChangeOutcome } from "./change-lifecycle.js";
import { latestChange } from "./changes.repo.js";
import { answer, found } from "../shared/simulation.js";
import { invalidState } from "../../platform/lib/errors.js";

const REMARKS = { REGISTERED: "SANDBOX: UCC REGISTERED", REJECTED: "SANDBOX: UCC REJECTED BY SIMULATION" } as const;

/**
 * Sandbox: the exchange decides on a PENDING investor's registration. The sandbox exchange's books
 * change first, then the service applies the answer exactly as a status sync would.
 */
export function simulateInvestorRegistration(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  investorId: string,
  status: keyof typeof REMARKS,
  remark: string | undefined,
) {
  return decideRegistration({
    noun: "Investor",
    id: investorId,
    requested: status,
    find: () => findInvestor(services.prisma, caller.distributorId, investorId),
    decide: (investor) => services.sandboxExchange.decide("UCC", investor.uccCode, status, remark ?? REMARKS[status]),
    apply: (outcome) => applyRegistration(services.prisma, investorId, outcome),
  });
}

const CHANGE_REMARKS = { APPLIED: "SANDBOX: UCC MODIFICATION APPLIED", REJECTED: "SANDBOX: UCC MODIFICATION REJECTED BY SIMULATION" } as const;

/**
 * Sandbox: the exchange decides on a REGISTERED investor's pending change (its UCC modification). The
 * sandbox exchange's books take the decision first (even before the job has sent the change), then the
 * service applies it as the job would; the job, when it runs, finds the change decided.
 */
export async function simulateInvestorChange(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  investorId: string,
  decision: keyof typeof CHANGE_REMARKS,
  remark: string | undefined,
) {
  found("Investor", await findInvestor(services.prisma, caller.distributorId, investorId));
  const change = await latestChange(services.prisma, investorId);
  if (change?.status !== "PENDING") throw invalidState(`Investor ${investorId} has no PENDING change; only a PENDING change can be decided`);
  const requested = decision === "APPLIED" ? "REGISTERED" : "REJECTED";
  const outcome = await services.sandboxExchange.decide("UCC_CHANGE", change.id, requested, remark ?? CHANGE_REMARKS[decision]);
  await applyChangeOutcome(services.prisma, services.cipher, change.id, outcome);
  if (outcome.status !== requested) throw invalidState(`Change ${change.id} was already decided by the exchange`);
  return answer(`Investor change ${decision.toLowerCase()}`, change.id);
}
