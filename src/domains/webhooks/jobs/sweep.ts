import { enqueue } from "../../shared/jobs/enqueue.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { countUnheldDueBefore } from "../deliveries.repo.js";
import { clearExpiredPreviousSecrets } from "../subscriptions.repo.js";

const OVERDUE_MINUTES = 5;

/**
 * Every minute: if deliveries are overdue by minutes with no job holding them (a worker killed after
 * claiming them, a job lost with its worker's lock), a delivery job is queued. Claims are leased, so a
 * delivery another job still holds is not sent twice at once. It also removes the secrets that rotations
 * replaced once their overlap has ended (they already sign nothing then).
 */
export const sweepWebhookDeliveries: TaskHandler<"webhooks__sweep"> = async (_payload, { services, log }) => {
  await clearExpiredPreviousSecrets(services.prisma);
  const overdue = await countUnheldDueBefore(services.prisma, new Date(Date.now() - OVERDUE_MINUTES * 60_000));
  if (overdue === 0) return;
  await enqueue(services.prisma, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:sweep" });
  log.warn({ overdue }, "overdue webhook deliveries found; a delivery job is queued");
};
