import pg from "pg";
import { parseCronItems, run, runMigrations, type Runner } from "graphile-worker";
import type { Logger } from "./lib/logger.js";
import { buildTaskList, cronItems } from "./jobs/task-list.js";
import { logLostConnections, workerLogger } from "./jobs/worker-log.js";
import type { Services } from "./trpc/context.js";

/** Installs or upgrades graphile-worker's own schema (idempotent; it takes its own lock). */
export async function migrateWorkerSchema(connectionString: string, logger: Logger): Promise<void> {
  await runMigrations({ connectionString, logger: workerLogger(logger.child({ component: "worker" })) });
}

export interface WorkerHandle {
  runner: Runner;
  stop(): Promise<void>;
}

export async function startWorker(services: Services, connectionString: string): Promise<WorkerHandle> {
  const log = services.logger.child({ component: "worker" });
  // Our own pool, so a dropped connection (database restart) is logged instead of crashing the process.
  const pgPool = new pg.Pool({ connectionString, max: services.config.workerConcurrency + 2 });
  logLostConnections(pgPool, log, "worker database connection lost");
  const runner = await run({
    pgPool,
    concurrency: services.config.workerConcurrency,
    noHandleSignals: true,
    pollInterval: 2_000,
    taskList: buildTaskList(services),
    parsedCronItems: parseCronItems(cronItems(services.config)),
    logger: workerLogger(log),
  });
  return {
    runner,
    stop: async () => {
      await runner.stop();
      await pgPool.end();
    },
  };
}
