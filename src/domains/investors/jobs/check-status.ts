import type { TaskHandler } from "../../shared/jobs/task.js";
import { findInvestorById, pendingInvestorIds } from "../investors.repo.js";
import { queueStatusChecks } from "../investors.service.js";
import { applyRegistration } from "../lifecycle.js";

/** Asks the exchange where a PENDING investor's registration stands and applies the answer. */
export const checkInvestorStatus: TaskHandler<"investors__check_status"> = async ({ investor_id }, { services }) => {
  const investor = await findInvestorById(services.prisma, investor_id);
  if (!investor || investor.status !== "PENDING") return;
  await applyRegistration(services.prisma, investor_id, await services.exchange.investorStatus(investor.uccCode));
};

/** Periodic: a status check for every PENDING investor of every distributor. */
export const syncPendingInvestors: TaskHandler<"investors__sync_pending"> = async (_payload, { services, log }) => {
  const ids = await pendingInvestorIds(services.prisma, {});
  await queueStatusChecks(services.prisma, ids);
  log.info({ queued: ids.length }, "investor status checks queued");
};
