import type { Log } from "./logger.js";

/**
 * A warning that fires for many events at once (every request during a database outage): the first is
 * logged, then at most one line per `intervalMs`, carrying how many were left out since the last one
 * (`suppressed`). Per process; the fields of the logged event are kept (its request id, its error).
 */
export function throttledWarning(message: string, intervalMs: number, now: () => number = Date.now) {
  let lastAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return (log: Log, fields: Record<string, unknown>): void => {
    const at = now();
    if (at - lastAt < intervalMs) {
      suppressed++;
      return;
    }
    log.warn({ ...fields, ...(suppressed > 0 ? { suppressed } : {}) }, message);
    lastAt = at;
    suppressed = 0;
  };
}
