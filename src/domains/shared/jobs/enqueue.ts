import type { DbOrTx } from "../../../platform/db/client.js";
import { TASKS, type TaskName, type TaskPayload } from "./catalog.js";
import { addJob, addJobs, type JobToAdd } from "../../../platform/jobs/jobs.repo.js";
import { Batcher } from "../../../platform/lib/batcher.js";
import { withTraceparent } from "../../../platform/tracing/trace-context.js";

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
  const job = jobToAdd(task, payload, options);
  // A keyed job is skipped when a worker locks its pending namesake mid-call (see addJob); asked again,
  // graphile-worker clears the now locked job's key and inserts ours, so the new work is not lost.
  for (let attempt = 1; !(await addJob(tx, job)); attempt++) {
    if (attempt === ADD_ATTEMPTS) throw new Error(`graphile-worker added no ${task} job for key ${job.jobKey} in ${ADD_ATTEMPTS} attempts`);
  }
}

const ADD_ATTEMPTS = 3;

/**
 * A task's job as graphile_worker.add_job takes it, its payload checked against the task's schema; with a span
 * active, the payload also carries its `traceparent` (the task list takes it off before the schema sees it).
 */
export function jobToAdd<N extends TaskName>(task: N, payload: TaskPayload<N>, options: EnqueueOptions = {}): JobToAdd {
  return {
    task,
    payload: JSON.stringify(withTraceparent(TASKS[task].parse(payload))),
    queueName: options.queueName ?? null,
    runAt: options.runAt ?? null,
    maxAttempts: options.maxAttempts ?? null,
    jobKey: options.jobKey ?? null,
    priority: options.priority ?? null,
  };
}

const committedJobs = new WeakMap<DbOrTx, Batcher<JobToAdd, boolean>>();

/**
 * Adds a job for a state change that has already committed (the placement that wrote its order on its own,
 * with no transaction), batched with the jobs other requests add meanwhile into one add_jobs call. Unlike
 * enqueue the job is not atomic with the change: the change must be one a sweep finds and queues again (an
 * order's dispatch: dispatch-recovery.ts queueLostDispatches) if the process dies in between.
 */
export async function enqueueCommitted(db: DbOrTx, job: JobToAdd): Promise<boolean> {
  let batcher = committedJobs.get(db);
  if (!batcher) {
    batcher = new Batcher((jobs) => addJobs(db, jobs));
    committedJobs.set(db, batcher);
  }
  return batcher.add(job);
}
