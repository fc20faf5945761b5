import { EventEmitter } from "node:events";
import pg from "pg";
import { parseCronItems, run, runMigrations, type Runner, type WorkerEvents, type WorkerPool } from "graphile-worker";
import { errorSummary, type Logger } from "./platform/lib/logger.js";
import { buildTaskList, cronItems, STARTUP_JOBS } from "./tasks.js";
import { logLostConnections, workerLogger } from "./platform/jobs/worker-log.js";
import { HEARTBEAT_MS, RECOVERY_EVERY_MS, WorkerLiveness } from "./platform/jobs/worker-liveness.js";
import { superviseRunner } from "./platform/jobs/runner-supervisor.js";
import { OutageNotice } from "./platform/jobs/outage-notice.js";
import { CONNECTION_BOUNDS } from "./platform/db/connection-errors.js";
import type { Services } from "./domains/shared/services.js";

/** Installs or upgrades graphile-worker's own schema (idempotent; it takes its own lock). */
export async function migrateWorkerSchema(connectionString: string, logger: Logger): Promise<void> {
  await runMigrations({ connectionString, logger: workerLogger(logger.child({ component: "worker" })) });
}

export interface WorkerHandle {
  runner: Runner;
  stop(): Promise<void>;
}

/**
 * graphile-worker's batching (https://worker.graphile.org/docs/performance#batching), shared by the
 * service's worker and the benchmarks' no-op baseline. The pool locks up to `localQueue.size` runnable jobs
 * in one query and hands them to its workers without a round trip each (a backlog of short jobs costs one
 * claim per batch, not per job); completions and failures arriving in the same few milliseconds are written
 * in one statement. What it costs: up to `size` jobs sit locked in this process (returned on a clean stop,
 * released by worker-liveness when the process dies) and a finished job stays locked for up to the batch delay
 * (a crash in that window runs it again: every task is idempotent). A local queue is only worth having beside
 * several concurrent workers: with MF_WORKER_CONCURRENCY=1 it is off.
 */
export function workerBatching(concurrency: number) {
  return {
    localQueue: { size: concurrency > 1 ? Math.max(LOCAL_QUEUE_MIN, concurrency * 4) : -1 },
    completeJobBatchDelay: JOB_BATCH_DELAY_MS,
    failJobBatchDelay: JOB_BATCH_DELAY_MS,
  };
}
const LOCAL_QUEUE_MIN = 20;
const JOB_BATCH_DELAY_MS = 2;

/**
 * How long a stop waits for running jobs. Past it, graphile-worker's forceful shutdown fails them (they run
 * again, after its short back-off, in this or another worker), so a stop fits the service's 10 s budget.
 */
const STOP_GRACE_MS = 5_000;

export async function startWorker(
  services: Services,
  connectionString: string,
  options: { stopGraceMs?: number } = {},
): Promise<WorkerHandle> {
  const log = services.logger.child({ component: "worker" });
  let stopping = false;
  // Our own pool, so a dropped connection (database restart) is logged instead of crashing the process;
  // once the worker stops, connections closing under it are expected and not reported. A connection that
  // cannot be had in time fails (graphile-worker retries), so nothing waits on a silent database host.
  const pgPool = new pg.Pool({ connectionString, max: services.config.workerConcurrency + 2, ...CONNECTION_BOUNDS });
  logLostConnections(pgPool, log, "worker database connection lost", () => stopping);

  const outage = new OutageNotice(log);
  const liveness = new WorkerLiveness(connectionString, log, { outage });
  const events = new EventEmitter() as WorkerEvents;
  // The pool graphile-worker reported last (the runner being started), and each runner's pool once started.
  let latestPool: WorkerPool | undefined;
  const poolOf = new WeakMap<Runner, WorkerPool>();
  let registered: Promise<void> | undefined;
  // graphile-worker reports its pool (the `locked_by` of its jobs) before it spawns the workers that take
  // jobs: the first registration goes out on the liveness connection right then, not after run() returns
  // (a restarted runner's pool takes the registration over once it runs: replacePool below).
  events.on("pool:create", (event) => {
    latestPool = event.workerPool;
    if (registered) return;
    registered = liveness.register(event.workerPool.id);
    registered.catch(() => {}); // awaited below
  });
  const startRunner = async (): Promise<Runner> => {
    const runner = await run({
      pgPool,
      events,
      concurrency: services.config.workerConcurrency,
      noHandleSignals: true,
      pollInterval: 2_000,
      taskList: buildTaskList(services),
      parsedCronItems: parseCronItems(cronItems(services.config)),
      logger: workerLogger(log, outage),
      preset: { worker: workerBatching(services.config.workerConcurrency) },
    });
    poolOf.set(runner, latestPool!);
    return runner;
  };
  let runner: Runner | undefined;
  try {
    await liveness.acquire();
    runner = await startRunner();
    if (!registered) throw new Error("graphile-worker did not report its worker pool");
    await registered;
    for (const { task, delayMs } of STARTUP_JOBS) await runner.addJob(task, {}, { jobKey: `${task}:startup`, runAt: new Date(Date.now() + delayMs) });
  } catch (error) {
    // Nothing a failed start opened may stay open: the runner, the liveness connection (and its lock), the pool.
    stopping = true;
    await runner?.stop().catch(() => {});
    await liveness.close().catch(() => {});
    await pgPool.end().catch(() => {});
    throw error;
  }
  const supervisor = superviseRunner(runner, {
    start: startRunner,
    log,
    onRestarted: (previous, next) => liveness.replacePool(poolOf.get(previous)!.id, poolOf.get(next)!.id, pgPool),
  });
  // A worker whose job could not be released (the database gone at that moment) leaves its pool for good.
  // Its LISTEN connection made again: the database is back.
  events.on("pool:listen:success", () => outage.restored());
  events.on("worker:fatalError", () => supervisor.replace("a worker could not release its job"));

  // Jobs a killed worker process still holds: checked every few seconds (the first judgement once this
  // process's own liveness connection has settled, see WorkerLiveness).
  const releaseStopped = () =>
    liveness.releaseStoppedPools(pgPool).catch((error: unknown) => stopping || outage.failed(error) || log.warn({ error: errorSummary(error) }, "releasing stopped workers' jobs failed"));
  const heartbeatFailed = (error: unknown) => stopping || outage.failed(error) || log.warn({ error: errorSummary(error) }, "worker heartbeat failed");
  const heartbeat = setInterval(() => void liveness.heartbeat().catch(heartbeatFailed), HEARTBEAT_MS);
  const recovery = setInterval(() => void releaseStopped(), RECOVERY_EVERY_MS);
  heartbeat.unref();
  recovery.unref();

  return {
    // A stop from outside (tests) is not an outage: the supervisor leaves that runner stopped.
    get runner() {
      const current = supervisor.current();
      return { ...current, stop: (reason?: string) => (supervisor.stoppedFromOutside(), current.stop(reason)) };
    },
    stop: async () => {
      stopping = true;
      clearInterval(heartbeat);
      clearInterval(recovery);
      try {
        const stopped = supervisor.stop();
        const grace = options.stopGraceMs ?? STOP_GRACE_MS;
        let timer: NodeJS.Timeout | undefined;
        const inTime = await Promise.race([stopped.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), grace)))]).finally(() =>
          clearTimeout(timer),
        );
        if (!inTime) {
          log.warn({ grace_ms: grace }, "jobs still running at the stop deadline are failed now, to run again");
          // The jobs are failed (unlocked for a retry); the graceful stop itself would still wait for them.
          const pool = poolOf.get(supervisor.current())!;
          await Promise.resolve(pool.forcefulShutdown("stop deadline")).catch((error: unknown) => log.warn({ error: errorSummary(error) }, "forceful worker stop failed"));
        }
      } finally {
        // Whatever the runner's stop did, the registration, the liveness lock and the pool end with it.
        try {
          await liveness.close();
        } finally {
          await pgPool.end();
        }
      }
    },
  };
}
