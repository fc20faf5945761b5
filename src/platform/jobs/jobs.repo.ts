import { readRows, type DbOrTx } from "../db/client.js";

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

/**
 * Adds several jobs with one graphile_worker.add_jobs call: one statement and one NOTIFY for all of them
 * (add_job notifies once per job, and PostgreSQL serialises the commits of notifying transactions). Answers,
 * per job in order, whether graphile-worker added it; keyed jobs are told apart by their keys, so the keys of
 * one call must differ.
 */
export async function addJobs(db: DbOrTx, jobs: JobToAdd[]): Promise<boolean[]> {
  const column = <K extends keyof JobToAdd>(key: K) => jobs.map((job) => job[key]);
  const rows = await readRows<{ key: string | null }>(
    db,
    `SELECT added.key FROM graphile_worker.add_jobs(ARRAY(
       SELECT row(s.task, s.payload::json, s.queue_name, s.run_at::timestamptz, s.max_attempts, s.job_key, s.priority, NULL)::graphile_worker.job_spec
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[])
              WITH ORDINALITY AS s(task, payload, queue_name, run_at, max_attempts, job_key, priority, n)
        ORDER BY s.n)) AS added`,
    column("task"), column("payload"), column("queueName"), column("runAt").map((at) => at?.toISOString() ?? null), column("maxAttempts"), column("jobKey"), column("priority"),
  );
  const keyed = new Set(rows.map((row) => row.key));
  const unkeyedAdded = rows.filter((row) => row.key === null).length;
  const unkeyedAsked = jobs.filter((job) => job.jobKey === null).length;
  if (unkeyedAdded !== unkeyedAsked) throw new Error(`graphile-worker added ${unkeyedAdded} of ${unkeyedAsked} unkeyed jobs`);
  return jobs.map((job) => job.jobKey === null || keyed.has(job.jobKey));
}
