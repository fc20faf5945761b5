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

/** Adds a job on the given client: inside a transaction, it exists exactly when the transaction commits. */
export async function addJob(tx: DbOrTx, job: JobToAdd): Promise<void> {
  await tx.$executeRawUnsafe(
    `SELECT graphile_worker.add_job(
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
}
