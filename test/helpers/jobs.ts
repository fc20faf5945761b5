import { createLogger } from "../../src/lib/logger.js";
import type { TaskName, TaskPayload } from "../../src/jobs/catalog.js";
import type { TaskHandler } from "../../src/jobs/task.js";
import type { Services } from "../../src/core/services.js";
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
