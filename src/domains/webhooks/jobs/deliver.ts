import type { TaskHandler } from "../../shared/jobs/task.js";
import { attemptDueDeliveries } from "../attempts.js";

/** Attempts every due webhook delivery (see fan-out.ts for when this job is queued). */
export const deliverWebhooks: TaskHandler<"webhooks__deliver"> = async (_payload, { services }) => {
  await attemptDueDeliveries(services);
};
