import type { DbOrTx } from "../db/client.js";
import { TASKS, type TaskName, type TaskPayload } from "./catalog.js";

export interface EnqueueOptions {
  runAt?: Date;
  /** A job with the same key replaces the pending one instead of adding another. */
  jobKey?: string;
  /** Jobs in one queue run one at a time, in order. */
  queueName?: string;
  maxAttempts?: number;
  priority?: number;
}

/**
 * Adds a job inside the caller's transaction (graphile_worker.add_job), so the job exists exactly
 * when the state change that caused it commits.
 */
export async function enqueue<N extends TaskName>(
  tx: DbOrTx,
  task: N,
  payload: TaskPayload<N>,
  options: EnqueueOptions = {},
): Promise<void> {
  const parsed = TASKS[task].parse(payload);
  await tx.$executeRawUnsafe(
    `SELECT graphile_worker.add_job(
       identifier => $1::text, payload => $2::json, queue_name => $3::text, run_at => $4::timestamptz,
       max_attempts => $5::int, job_key => $6::text, priority => $7::int)`,
    task,
    JSON.stringify(parsed),
    options.queueName ?? null,
    options.runAt ?? null,
    options.maxAttempts ?? null,
    options.jobKey ?? null,
    options.priority ?? null,
  );
}
