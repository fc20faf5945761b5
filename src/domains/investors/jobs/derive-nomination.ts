import type { TaskHandler } from "../../shared/jobs/task.js";
import { backfillNominationStatus } from "../nomination-backfill.js";

/** Every 10 minutes: derives nomination_status for investors from before the column (nothing to read once done). */
export const deriveNomination: TaskHandler<"investors__derive_nomination"> = async (_payload, { services, log }) => {
  const result = await backfillNominationStatus(services);
  if (result.checked > 0) log.info(result, "nomination status derived for investors from before it");
};
