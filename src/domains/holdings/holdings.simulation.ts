import { z } from "zod";
import { answer } from "../shared/simulation.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import type { Services } from "../shared/services.js";
import { describeRefresh, refreshHoldings } from "./refresh.js";

export const RefreshQuery = z.strictObject({});

/**
 * Sandbox: the registrars' daily run, now. The sandbox registrar writes its feed files (seeded folios plus every
 * ALLOTTED order) and the importer reads the feed directory, as the daily job does. `message` summarises the
 * refresh; `data` is the balance date of the sandbox feed (today in Asia/Kolkata).
 */
export async function simulateHoldingsRefresh(services: Services) {
  const report = await refreshHoldings(services, { sandboxFeed: true });
  const asOf = report.files.map((f) => f.balance_date).filter((d): d is string => d !== null).sort().at(-1);
  return answer(`Holdings refreshed: ${describeRefresh(report)}`, asOf ?? todayInIndia());
}
