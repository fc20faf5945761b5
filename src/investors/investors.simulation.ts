import { invalidState, notFound } from "../lib/errors.js";
import type { Caller, Services } from "../trpc/context.js";
import type { SandboxExchange } from "../exchange/sandbox.js";
import { findInvestor } from "./investors.repo.js";
import { applyRegistration } from "./investors.service.js";

/**
 * Sandbox: the exchange decides on a PENDING investor's registration. The sandbox exchange's books
 * change first, then the service applies the answer exactly as a status sync would.
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
  if (investor.status !== "PENDING") throw invalidState(`Investor ${investorId} is ${investor.status}; only a PENDING investor can be ${status.toLowerCase()}`);
  const providerRemark = remark ?? (status === "REGISTERED" ? "SANDBOX: UCC REGISTERED" : "SANDBOX: UCC REJECTED BY SIMULATION");
  await services.sandboxExchange.set("UCC", investor.uccCode, status, providerRemark);
  if (!(await applyRegistration(services.prisma, investorId, { status, remark: providerRemark }))) {
    throw invalidState(`Investor ${investorId} is no longer PENDING`);
  }
  return { success: true as const, message: `Investor ${status.toLowerCase()}`, data: investorId };
}
