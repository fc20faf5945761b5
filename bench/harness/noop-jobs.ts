/**
 * graphile-worker's own rate in the same run: `count` no-op jobs added in one statement, then drained by a
 * runner with the options src/worker.ts uses (same concurrency, pool of concurrency + 2, poll interval, batching).
 * The baseline of the worker benchmarks (dispatch, webhooks): what the queue does when the task does nothing.
 */
import { Logger, run } from "graphile-worker";
import pg from "pg";
import { workerBatching } from "../../src/worker.js";

export async function noopJobRate(databaseUrl: string, count: number, concurrency: number): Promise<{ rate: number; seconds: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 2 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await pool.query(
      `SELECT graphile_worker.add_jobs(array_agg(row('bench__noop', '{}'::json, NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec))
         FROM generate_series(1, $1)`,
      [count],
    );
    let done = 0;
    const started = performance.now();
    const runner = await run({
      pgPool: pool, concurrency, noHandleSignals: true, pollInterval: 2_000,
      taskList: { bench__noop: async () => void done++ },
      // graphile-worker's default logger prints every job; the benchmark prints its own figures.
      logger: new Logger(() => () => {}),
      preset: { worker: workerBatching(concurrency) },
    });
    while (done < count) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - started) / 1000;
    await runner.stop();
    return { rate: count / seconds, seconds };
  } finally {
    await pool.end();
  }
}
