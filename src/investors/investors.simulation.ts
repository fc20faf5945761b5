import { notFound } from "../lib/errors.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
import type { SandboxExchange } from "../exchange/sandbox.js";
import { decideRegistration } from "../simulation/registration-decision.js";
import { findInvestor, getInvestorState } from "./investors.repo.js";
import { applyRegistration } from "./investors.service.js";

/**
 * Sandbox: the exchange decides on a PENDING investor's registration. The sandbox exchange's books
 * change first, then the service applies the answer exactly as a status sync would. An investor that
 * ends in the requested state (also when the registration job applied it first) answers success.
 */
export async function simulateInvestorRegistration(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  investorId: string,
  status: "REGISTERED" | "REJECTED",
  remark: string | undefined,
) {
  const investor = await findInvestor(services.prisma, caller.distributorId, investorId);
  if (!investor) throw notFound(`Investor ${investorId}`);
  const providerRemark = remark ?? (status === "REGISTERED" ? "SANDBOX: UCC REGISTERED" : "SANDBOX: UCC REJECTED BY SIMULATION");
  const result = await decideRegistration({
    what: `Investor ${investorId}`,
    status: investor.status,
    requested: status,
    decide: () => services.sandboxExchange.decide("UCC", investor.uccCode, status, providerRemark),
    apply: (outcome) => applyRegistration(services.prisma, investorId, outcome),
    statusNow: async () => (await getInvestorState(services.prisma, investorId)).status,
  });
  return { success: true as const, message: `Investor ${result === "already" ? "already " : ""}${status.toLowerCase()}`, data: investorId };
}
