import { Logger as WorkerLogger, type Job } from "graphile-worker";
import type pg from "pg";
import { errorSummary, type Log, type Logger } from "../lib/logger.js";
import type { OutageNotice } from "./outage-notice.js";

/**
 * graphile-worker's log lines through our logger, one short line each. graphile-worker hands its
 * lines the whole job (payload, lock, last error), whole errors and, at debug, its whole options
 * (the pg pool and its connection string): a job's end becomes `job completed` / `job failed` with
 * task, job id, attempt, outcome and duration; errors become `error: {type, code, message}`; other objects
 * are left out. With `outage`, its retries while the database is away are one line per outage (OutageNotice).
 */
export function workerLogger(logger: Logger, outage?: OutageNotice): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const line = workerLine(message, meta ?? {});
    if (line === null) return;
    // graphile-worker's retries while the database is away (not a job's own failure): once per outage.
    const cause = meta?.error ?? meta?.fatalError;
    if (outage && !meta?.job && level !== "debug" && cause !== undefined && outage.failed(cause)) return;
    const method = level === "error" ? "error" : level === "warning" ? "warn" : level === "debug" ? "debug" : "info";
    logger[method](line.fields, line.message);
  });
}

/** graphile-worker's own pool listeners report what logLostConnections already logs once. */
const REPORTED_BY_POOL_LISTENERS = /^PostgreSQL (idle|active) client generated error/;

function workerLine(message: string, meta: Record<string, unknown>): { fields: Record<string, unknown>; message: string } | null {
  if (REPORTED_BY_POOL_LISTENERS.test(message)) return null;
  const job = meta.job as Job | undefined;
  if (job && (meta.success === true || meta.failure === true)) {
    const failed = meta.failure === true;
    return {
      fields: {
        ...jobFields(job),
        outcome: failed ? "failure" : "success",
        duration_ms: typeof meta.duration === "number" ? Math.round(meta.duration * 10) / 10 : null,
        ...(failed ? { error: errorSummary(meta.error) } : {}),
      },
      message: failed ? "job failed" : "job completed",
    };
  }
  if ("options" in meta) return { fields: {}, message: "worker pool options (not logged: they hold the connection)" };
  const fields: Record<string, unknown> = job ? jobFields(job) : {};
  for (const [key, value] of Object.entries(meta)) {
    if (key === "error" || key === "fatalError" || value instanceof Error) fields.error = errorSummary(value);
    else if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return { fields, message: message.split("\n", 1)[0]! };
}

function jobFields(job: Job) {
  return { task: job.task_identifier, job_id: job.id, attempt: job.attempts, max_attempts: job.max_attempts };
}

/**
 * Logs a pool's lost connections, one short line per connection (a terminated connection emits
 * several errors, and pg-pool emits the idle ones again on the pool), and keeps an error on an idle
 * connection from crashing the process. Connections closing while `expected()` (a stop) are not reported.
 */
export function logLostConnections(pool: pg.Pool, log: Log, message: string, expected: () => boolean = () => false): void {
  const reported = new WeakSet<pg.PoolClient>();
  pool.on("error", () => {}); // already logged by the client's own listener below
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      if (reported.has(client) || expected()) return;
      reported.add(client);
      log.warn({ error: errorSummary(error) }, message);
    }),
  );
}
