import type { Job } from "graphile-worker";
import type { Services } from "../services.js";
import type { Logger } from "../../../platform/lib/logger.js";
import type { TaskName, TaskPayload } from "./catalog.js";

export interface TaskContext {
  services: Services;
  log: Logger;
  job: Job;
}

/** A task handler: receives its parsed payload; must be idempotent (a job can run more than once). */
export type TaskHandler<N extends TaskName> = (payload: TaskPayload<N>, context: TaskContext) => Promise<void>;
