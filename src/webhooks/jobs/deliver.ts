import { enqueue } from "../../jobs/enqueue.js";
import type { TaskHandler } from "../../jobs/task.js";
import { deliverDue } from "../delivery.js";

export const deliverWebhooks: TaskHandler<"webhooks__deliver"> = async (_payload, { services }) => {
  await deliverDue(services);
};

const OVERDUE_MINUTES = 5;

/**
 * Every minute: if deliveries are overdue by minutes with no job holding them (a worker killed after
 * claiming them, a job lost with its worker's lock), a delivery job is queued. Claims are leased, so a
 * delivery another job still holds is not sent twice at once.
 */
export const sweepWebhookDeliveries: TaskHandler<"webhooks__sweep"> = async (_payload, { services, log }) => {
  const overdue = await services.prisma.webhookDelivery.count({
    where: {
      status: "PENDING",
      nextAttemptAt: { lt: new Date(Date.now() - OVERDUE_MINUTES * 60_000) },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }],
    },
  });
  if (overdue === 0) return;
  await enqueue(services.prisma, "webhooks__deliver", {}, { jobKey: "webhooks__deliver:sweep" });
  log.warn({ overdue }, "overdue webhook deliveries found; a delivery job is queued");
};
