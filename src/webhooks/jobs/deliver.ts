import { enqueue } from "../../jobs/enqueue.js";
import type { TaskHandler } from "../../jobs/task.js";
import { attemptDeliveries } from "../delivery.js";

/** A batch of deliveries to attempt (see fan-out.ts for how batches form). */
export const deliverWebhooks: TaskHandler<"webhooks__deliver"> = async (batch, { services }) => {
  await attemptDeliveries(services, [...new Set(batch.map((item) => item.delivery_id))]);
};

const OVERDUE_MINUTES = 5;
const SWEEP_BATCH = 500;

/**
 * Every minute: PENDING deliveries overdue by minutes with no job holding them (a worker killed after
 * claiming them, a job lost with its worker's lock) are queued again. Claims are leased, so a delivery
 * still queued elsewhere is not sent twice at once.
 */
export const sweepWebhookDeliveries: TaskHandler<"webhooks__sweep"> = async (_payload, { services, log }) => {
  const overdue = await services.prisma.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT id FROM webhook_deliveries
      WHERE status = 'PENDING' AND next_attempt_at < now() - make_interval(mins => $1)
        AND (lease_until IS NULL OR lease_until < now())
      ORDER BY next_attempt_at LIMIT $2`,
    OVERDUE_MINUTES,
    SWEEP_BATCH,
  );
  if (overdue.length === 0) return;
  await enqueue(services.prisma, "webhooks__deliver", overdue.map((d) => ({ delivery_id: d.id })), { jobKey: "webhooks__deliver:sweep" });
  log.warn({ count: overdue.length }, "overdue webhook deliveries queued again");
};
