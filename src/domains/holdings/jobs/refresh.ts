import type { TaskHandler } from "../../shared/jobs/task.js";
import { refreshHoldings } from "../refresh.js";

/** The daily holdings refresh (crontab `HOLDINGS_REFRESH_CRON`, Asia/Kolkata). */
export const refreshHoldingsJob: TaskHandler<"holdings__refresh"> = async (_payload, { services }) => {
  await refreshHoldings(services);
};
