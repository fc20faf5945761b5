import type { Task } from "graphile-worker";
import { Counter, Histogram } from "prom-client";
import { metricsRegistry, secondsSince } from "./registry.js";

const runs = new Counter({
  name: "mf_jobs_total",
  help: "Job runs in this process by task, by outcome: success (the handler returned) or failure (it threw; the job is retried or, at its last attempt, kept failed)",
  labelNames: ["task", "outcome"] as const,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: "mf_job_duration_seconds",
  help: "Time a job run took in this process, by task (both outcomes)",
  labelNames: ["task"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

/** The task `name`'s handler, counted (mf_jobs_total) and timed (mf_job_duration_seconds) on every run. */
export function meteredTask(name: string, task: Task): Task {
  return async (payload, helpers) => {
    const started = performance.now();
    let outcome = "failure";
    try {
      const result = await task(payload, helpers);
      outcome = "success";
      return result;
    } finally {
      runs.inc({ task: name, outcome });
      duration.observe({ task: name }, secondsSince(started));
    }
  };
}
