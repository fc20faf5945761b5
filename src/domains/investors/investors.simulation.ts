import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { decideRegistration } from "../shared/registration-decision.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { findInvestor } from "./investors.repo.js";
import { applyRegistration } from "./lifecycle.js";

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
