import type { DbOrTx } from "../db/client.js";

/** A job as graphile_worker.add_job takes it; null leaves graphile-worker's default. */
export interface JobToAdd {
  task: string;
  /** The payload, as JSON text. */
  payload: string;
  queueName: string | null;
  runAt: Date | null;
  maxAttempts: number | null;
  jobKey: string | null;
  priority: number | null;
}

/**
 * Adds a job on the given client: inside a transaction, it exists exactly when the transaction commits.
 * Returns false when graphile-worker added nothing: a keyed job whose pending namesake a worker locked
 * between add_jobs' two statements (its "clear the key of locked jobs" update, then its insert, whose
 * ON CONFLICT skips a locked row) answers a row of nulls.
 */
export async function addJob(tx: DbOrTx, job: JobToAdd): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<Array<{ id: bigint | null }>>(
    `SELECT id FROM graphile_worker.add_job(
       identifier => $1::text, payload => $2::json, queue_name => $3::text, run_at => $4::timestamptz,
       max_attempts => $5::int, job_key => $6::text, priority => $7::int)`,
    job.task,
    job.payload,
    job.queueName,
    job.runAt,
    job.maxAttempts,
    job.jobKey,
    job.priority,
  );
  return rows[0]?.id !== null && rows[0]?.id !== undefined;
}
