import { errorSummary, type Log } from "../lib/logger.js";

/** What the supervisor needs of graphile-worker's Runner: it settles when the runner has stopped. */
export interface SupervisedRunner {
  promise: Promise<void>;
  stop(): Promise<void>;
}

/** Waits between attempts to start the runner again: 1 s, doubling, at most 30 s. */
export const RESTART_BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;

export interface RunnerSupervisor<R extends SupervisedRunner> {
  current(): R;
  /** Stops the current runner so that a new one takes its place (a worker of its pool died). */
  replace(reason: string): void;
  /** Stops for good: no restart is attempted any more, the current runner stops (and its failure is thrown). */
  stop(): Promise<void>;
  /** Set when a runner is stopped from outside (a test): that stop is not an outage and is not followed by a restart. */
  stoppedFromOutside(): void;
}

/**
 * Keeps a job runner running across database outages. graphile-worker rides out the outage itself (its
 * LISTEN connection reconnects with back-off, job fetches retry every poll) but shuts its pool down for good
 * when it cannot record a job's completion or failure: in 0.17.3 its batch retry rethrows the first error, so
 * one job ending while the database is away is enough. And a worker whose job could not be released leaves its
 * pool one worker short. Either way the runner is started again here, with back-off, until the database lets
 * it: one warning when it stops, one line when it runs again.
 */
export function superviseRunner<R extends SupervisedRunner>(
  first: R,
  options: { start: () => Promise<R>; log: Log; backoffMs?: readonly number[]; onRestarted?: (previous: R, next: R) => Promise<void> },
): RunnerSupervisor<R> {
  const backoff = options.backoffMs ?? RESTART_BACKOFF_MS;
  let current = first;
  let stopping = false;
  let fromOutside = false;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<R | null> | null = null;
  let wake: (() => void) | undefined;
  const ended = new WeakSet<R>();
  const replacing = new WeakSet<R>();

  const watch = (runner: R) => {
    const settled = (error?: unknown) => {
      ended.add(runner);
      if (runner !== current || stopping || fromOutside) return;
      options.log.warn({ ...(error ? { error: errorSummary(error) } : {}) }, "the job runner stopped; starting it again (with back-off) until the database lets it");
      void restart(Date.now());
    };
    runner.promise.then(() => settled(), settled);
  };

  const restart = async (downSince: number) => {
    for (let attempt = 0; !stopping; attempt++) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, backoff[Math.min(attempt, backoff.length - 1)]);
      });
      if (stopping) return;
      starting = options.start().catch((error: unknown) => {
        options.log.debug({ error: errorSummary(error), attempt: attempt + 1 }, "the job runner could not start yet");
        return null;
      });
      const next = await starting;
      starting = null;
      if (!next) continue;
      if (stopping) {
        await next.stop().catch(() => {});
        return;
      }
      const previous = current;
      current = next;
      watch(next);
      options.log.info({ attempts: attempt + 1, down_ms: Date.now() - downSince }, "the job runner runs again");
      await options.onRestarted?.(previous, next).catch((error: unknown) => options.log.warn({ error: errorSummary(error) }, "tidying up after the job runner's restart failed"));
      return;
    }
  };

  watch(first);
  return {
    current: () => current,
    replace: (reason) => {
      if (stopping || replacing.has(current)) return;
      replacing.add(current);
      options.log.warn({ reason }, "a worker of the job runner stopped; replacing the runner");
      current.stop().catch(() => {}); // its promise settles, and the watch above starts the next one
    },
    stoppedFromOutside: () => {
      fromOutside = true;
    },
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await starting;
      // A runner that already ended (the outage's) has nothing left to stop; one stopped from outside says so.
      if (ended.has(current) && !fromOutside) return;
      await current.stop();
    },
  };
}
