import { isDatabaseUnavailable } from "../db/connection-errors.js";
import { errorSummary, type Log } from "../lib/logger.js";

/**
 * While the database is out of reach, graphile-worker retries on its own (its LISTEN connection with
 * back-off, a job fetch every poll, the cron, the reset of locked jobs) and the heartbeat fails every 5 s:
 * each would log an error per try for as long as the outage lasts. The first such failure is logged, as a
 * warning; the others are not, until `restored` (a connection made again), which logs how long it lasted.
 * Failures that are not about reaching the database are left to the caller.
 */
export class OutageNotice {
  private since: number | null = null;

  constructor(private readonly log: Log) {}

  /** True when `error` is the database being out of reach: it has been taken care of (logged or counted). */
  failed(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    if (this.since === null) {
      this.since = Date.now();
      this.log.warn({ error: errorSummary(error) }, "the worker cannot reach the database; retrying until it is back");
    }
    return true;
  }

  restored(): void {
    if (this.since === null) return;
    this.log.info({ down_ms: Date.now() - this.since }, "the worker reaches the database again");
    this.since = null;
  }
}
