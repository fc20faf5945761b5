import { z } from "zod";
import { answer } from "../shared/simulation.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { distributorArn } from "./holdings.repo.js";
import { describeRefresh, refreshHoldings } from "./refresh.js";

export const RefreshQuery = z.strictObject({});

/**
 * Sandbox: the registrars' daily run, now, for the caller. The sandbox registrar writes the caller's feed files
 * (seeded folios plus its ALLOTTED orders), the importer reads those, as the daily job does, and they are deleted.
 * `message` summarises the caller's refresh only; `data` is the balance date of the sandbox feed (today in Asia/Kolkata).
 */
export async function simulateHoldingsRefresh(services: Services & { caller: Caller }) {
  const arn = await distributorArn(services.prisma, services.caller.distributorId);
  const report = await refreshHoldings(services, { sandboxFeed: true, sandboxArn: arn });
  const asOf = report.files.map((f) => f.balance_date).filter((d): d is string => d !== null).sort().at(-1);
  return answer(`Holdings refreshed: ${describeRefresh(report)}`, asOf ?? todayInIndia());
}
