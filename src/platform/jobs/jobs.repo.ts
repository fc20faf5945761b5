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
  const rows = await tx.$queryRawUnsafe<Array<{ id: bigint | null }>>(`SELECT id FROM ${addJobCall(1)}`, ...addJobParameters(job));
  return rows[0]?.id !== null && rows[0]?.id !== undefined;
}

/** The add_job call with its seven arguments as `$first` .. `$first+6`, for a statement that adds a job among other work. */
export function addJobCall(first: number): string {
  const $ = (n: number) => `$${first + n}`;
  return `graphile_worker.add_job(
       identifier => ${$(0)}::text, payload => ${$(1)}::json, queue_name => ${$(2)}::text, run_at => ${$(3)}::timestamptz,
       max_attempts => ${$(4)}::int, job_key => ${$(5)}::text, priority => ${$(6)}::int)`;
}

/** addJobCall's arguments, in its order. */
export function addJobParameters(job: JobToAdd): unknown[] {
  return [job.task, job.payload, job.queueName, job.runAt, job.maxAttempts, job.jobKey, job.priority];
}
