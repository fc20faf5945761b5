import type { Db } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import type { RegistrationOutcome } from "../../integrations/exchange/port.js";
import * as repo from "./investors.repo.js";

/**
 * An investor's one status move, its registration at the exchange: PENDING -> REGISTERED | REJECTED, with
 * investor.registered or investor.rejected in the same transaction. Created PENDING (investors.service.ts);
 * nothing else moves it.
 */

/**
 * Applies what the exchange says about a registration. A move happens once: a second report of the
 * same outcome (a retried job, a sync after a simulation) finds the investor no longer PENDING and
 * writes nothing, so each event is recorded exactly once.
 */
export async function applyRegistration(db: Db, investorId: string, outcome: RegistrationOutcome): Promise<boolean> {
  if (outcome.status === "PENDING") {
    await repo.setProviderRemark(db, investorId, outcome.remark);
    return false;
  }
  return db.$transaction(async (tx) => {
    const moved = await repo.moveFromPending(tx, investorId, { status: outcome.status, providerRemark: outcome.remark });
    if (!moved) return false;
    const { distributorId } = await repo.getInvestorState(tx, investorId);
    const about = { distributorId, resourceType: "investor", resourceId: investorId } as const;
    const remark = outcome.remark;
    if (outcome.status === "REGISTERED") {
      await recordEvent(tx, { ...about, event: "investor.registered", data: { investor_id: investorId, status: "REGISTERED", provider_remark: remark } });
    } else {
      await recordEvent(tx, { ...about, event: "investor.rejected", data: { investor_id: investorId, status: "REJECTED", provider_remark: remark } });
    }
    return true;
  });
}
