import { createLogger } from "../../src/platform/lib/logger.js";
import type { TaskName, TaskPayload } from "../../src/domains/shared/jobs/catalog.js";
import type { TaskHandler } from "../../src/domains/shared/jobs/task.js";
import type { Services } from "../../src/domains/shared/services.js";
import type { TestApp } from "./app.js";

/**
 * Runs a task handler directly, as the worker would on the given attempt (default 1 of 5), with the
 * app's services unless others are given (a port standing in for a failing exchange).
 */
export function runTask<N extends TaskName>(
  app: TestApp,
  handler: TaskHandler<N>,
  payload: TaskPayload<N>,
  options: { attempts?: number; maxAttempts?: number; services?: Services } = {},
) {
  return handler(payload, {
    services: options.services ?? app.services,
    log: createLogger("silent"),
    job: { attempts: options.attempts ?? 1, max_attempts: options.maxAttempts ?? 5 } as never,
  });
}

export interface QueuedJob {
  key: string | null;
  payload: Record<string, unknown>;
  max_attempts: number;
}

/** The jobs of `task` waiting in graphile-worker's queue whose payload has `field` equal to `value`. */
export function queuedJobs(app: TestApp, task: TaskName, field: string, value: string): Promise<QueuedJob[]> {
  return app.prisma.$queryRawUnsafe<QueuedJob[]>(
    `SELECT j.key, j.payload, j.max_attempts FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = $1 AND j.payload->>$2 = $3 ORDER BY j.id`,
    task, field, value,
  );
}
