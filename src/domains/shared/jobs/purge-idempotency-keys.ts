import type { TaskHandler } from "./task.js";
import { IDEMPOTENCY_WINDOW_HOURS } from "../../../platform/idempotency/idempotency.js";
import { purgeExpiredKeys } from "../../../platform/idempotency/idempotency.repo.js";

/** Keys older than the idempotency window can no longer be replayed; the daily sweep removes them. */
export const purgeExpiredIdempotencyKeys: TaskHandler<"idempotency__purge_expired"> = async (_payload, { services, log }) => {
  const deleted = await purgeExpiredKeys(services.prisma, IDEMPOTENCY_WINDOW_HOURS);
  log.info({ deleted }, "expired idempotency keys purged");
};
