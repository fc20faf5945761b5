import type { CronItem } from "graphile-worker";
import { indiaCronMatcher } from "../../../platform/lib/india-cron.js";
import { enqueue } from "../../shared/jobs/enqueue.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { purgeBatch, type PurgeKind } from "../retention.repo.js";

const DAY_MS = 86_400_000;
/** A PARKED or FAILED delivery waits this long for a retry (never less than WEBHOOK_RETENTION_DAYS). */
export const PARKED_RETENTION_DAYS = 90;
/** Deliveries one batch (one short transaction) deletes at most. */
export const PURGE_BATCH_SIZE = 1_000;
/** How long one run keeps deleting before it hands the rest to a new job. */
export const PURGE_BUDGET_MS = 60_000;
const CONTINUATION_KEY = "webhooks__purge_old_deliveries:more";

/**
 * Daily: removes the DELIVERED deliveries delivered more than WEBHOOK_RETENTION_DAYS ago and the PARKED and FAILED
 * ones untouched for PARKED_RETENTION_DAYS, each with its attempts; PENDING ones (due, in flight or a test's) never.
 * Events stay: they are the audit trail. Batches of `batch_size` (each its own transaction, so no lock is held long)
 * run until nothing is left or `budget_ms` is spent, then a new job continues (at least one batch per kind per run).
 */
export const purgeOldDeliveries: TaskHandler<"webhooks__purge_old_deliveries"> = async (payload, { services, log }) => {
  const limit = payload.batch_size ?? PURGE_BATCH_SIZE;
  const deadline = Date.now() + (payload.budget_ms ?? PURGE_BUDGET_MS);
  const retentionDays = services.config.webhooks.retentionDays;
  const cutoffs: Array<[PurgeKind, Date]> = [
    ["DELIVERED", new Date(Date.now() - retentionDays * DAY_MS)],
    ["PARKED_OR_FAILED", new Date(Date.now() - Math.max(PARKED_RETENTION_DAYS, retentionDays) * DAY_MS)],
  ];
  const deleted = { deliveries: 0, attempts: 0, batches: 0 };
  let more = false;
  for (const [kind, before] of cutoffs) {
    let batch;
    do {
      batch = await purgeBatch(services.prisma, kind, before, limit);
      deleted.deliveries += batch.deliveries;
      deleted.attempts += batch.attempts;
      deleted.batches += 1;
    } while (batch.deliveries === limit && Date.now() < deadline);
    // A full last batch: there may be more of this kind.
    if (batch.deliveries === limit) more = true;
  }
  if (more) await enqueue(services.prisma, "webhooks__purge_old_deliveries", payload, { jobKey: CONTINUATION_KEY });
  log.info({ ...deleted, more, retention_days: retentionDays }, "old webhook deliveries purged");
};

/** 03:15 India time, when deliveries are fewest; a run missed within 6 h (a restart) is still made. */
export const PURGE_OLD_DELIVERIES_CRON_ITEM: CronItem = {
  task: "webhooks__purge_old_deliveries",
  identifier: "webhooks__purge_old_deliveries",
  options: { backfillPeriod: 6 * 3_600_000 },
  match: indiaCronMatcher("15 3 * * *"),
};
