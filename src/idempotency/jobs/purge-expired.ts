import type { TaskHandler } from "../../jobs/task.js";
import { IDEMPOTENCY_WINDOW_HOURS } from "../idempotency.js";

/** Keys older than the idempotency window can no longer be replayed; the daily sweep removes them. */
export const purgeExpiredIdempotencyKeys: TaskHandler<"idempotency__purge_expired"> = async (_payload, { services, log }) => {
  const deleted = await services.prisma.$executeRawUnsafe(
    `DELETE FROM idempotency_keys WHERE created_at < now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`,
  );
  log.info({ deleted }, "expired idempotency keys purged");
};
