import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { answer, found, requireMoved, requireState } from "../shared/simulation.js";
import { findBrokerChange } from "./broker-changes.repo.js";
import { rejectBrokerChange } from "./lifecycle.js";

const REJECT_REMARK = "SANDBOX: BROKER CHANGE REJECTED BY SIMULATION";

/** Sandbox: the registrar rejects one of the caller's SUBMITTED requests; its books change first. */
export async function simulateBrokerChangeRejection(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  id: string,
  remark: string | undefined,
) {
  const label = `Broker change request ${id}`;
  const change = found("Broker change request", await findBrokerChange(services.prisma, caller.distributorId, id));
  requireState(label, change.status, "SUBMITTED", "broker change request can be rejected");
  const providerRemark = remark ?? REJECT_REMARK;
  await services.sandboxExchange.set("BROKER_CHANGE", id, "REJECTED", providerRemark);
  requireMoved(await rejectBrokerChange(services.prisma, id, providerRemark), label, "SUBMITTED");
  return answer("Broker change request rejected", id);
}
