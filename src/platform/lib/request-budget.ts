import { AppError } from "./errors.js";

export interface BudgetSettings {
  /** Requests per second added to a client's bucket. */
  rps: number;
  /** The most a bucket holds: the burst a rested client may send at once. */
  burst: number;
}

export interface BudgetVerdict {
  allowed: boolean;
  /** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, and `Retry-After` on a refusal. */
  headers: Record<string, string>;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms of the budget's clock). */
  at: number;
}

const MAX_BUCKETS = 10_000;

export interface BudgetOptions {
  /** The most buckets held at once (default 10,000): the memory bound. */
  maxBuckets?: number;
}

/**
 * The request budget of every API client (or, in a budget of its own, every client address): a token
 * bucket per key, refilled continuously at `rps` up to `burst`. It lives in this process's memory (no
 * database round trip on the hot path), so with N API processes a client may reach N times the budget.
 *
 * The map is bounded by forgetting full buckets only (a forgotten full bucket is the same as a new one).
 * A spent bucket is never forgotten: were it, a flood of new keys (addresses from many IPv6 /64s) would
 * hand an emptied client a full budget again. While every bucket is spent, a new key is refused instead,
 * until the first bucket is full again.
 *
 * Headers: `RateLimit-Limit` is the burst (what a full bucket allows at once), `RateLimit-Remaining`
 * the whole requests left now, `RateLimit-Reset` the seconds until the bucket is full again; a refusal
 * adds `Retry-After`, the seconds until one request fits.
 */
export class RequestBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly limitHeader: string;
  private readonly maxBuckets: number;
  /** While the map is full: no bucket is full before this time, so nothing can be forgotten yet. */
  private noRoomUntil = -Infinity;

  constructor(private readonly settings: BudgetSettings, private readonly now: () => number = () => performance.now(), options: BudgetOptions = {}) {
    this.perMs = settings.rps / 1000;
    this.limitHeader = String(settings.burst);
    this.maxBuckets = options.maxBuckets ?? MAX_BUCKETS;
  }

  take(clientId: string): BudgetVerdict {
    const now = this.now();
    const { burst } = this.settings;
    let bucket = this.buckets.get(clientId);
    if (bucket === undefined) {
      if (!this.makeRoom(now)) return this.noRoom(now);
      bucket = { tokens: burst, at: now };
      this.buckets.set(clientId, bucket);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const headers: Record<string, string> = {
      "RateLimit-Limit": this.limitHeader,
      "RateLimit-Remaining": String(Math.floor(bucket.tokens)),
      "RateLimit-Reset": String(this.secondsUntil(burst - bucket.tokens)),
    };
    if (!allowed) headers["Retry-After"] = String(Math.max(1, this.secondsUntil(1 - bucket.tokens)));
    return { allowed, headers };
  }

  /** Gives back one request `key` spent (one it was then found not to owe). */
  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket !== undefined) bucket.tokens = Math.min(this.settings.burst, bucket.tokens + 1);
  }

  /** Whole seconds until `missing` tokens have been added. */
  private secondsUntil(missing: number): number {
    // Rounding noise of the refill arithmetic (up to a nanosecond) must not turn an exact 1 s into 2 s, nor 0 s into 1 s.
    return Math.max(0, Math.ceil(missing / this.settings.rps - 1e-9));
  }

  /**
   * Room for one more bucket: when the map is full, every full bucket is forgotten (one sweep frees many,
   * so sweeps are rare). A sweep that frees none remembers when the first bucket fills, and until then
   * new keys are refused without another sweep.
   */
  private makeRoom(now: number): boolean {
    if (this.buckets.size < this.maxBuckets) return true;
    // Stryker disable next-line ConditionalExpression: a cost guard; the sweep it skips frees nothing (a take only delays filling; a refund filling one sooner waits for this time), it only refreshes Retry-After
    if (now < this.noRoomUntil) return false;
    const { burst } = this.settings;
    let firstFull = Infinity;
    for (const [key, bucket] of this.buckets) {
      const fullAt = bucket.at + (burst - bucket.tokens) / this.perMs;
      if (fullAt <= now) this.buckets.delete(key);
      else firstFull = Math.min(firstFull, fullAt);
    }
    if (this.buckets.size < this.maxBuckets) return true;
    this.noRoomUntil = firstFull;
    return false;
  }

  /** A new key's refusal while the map is full of spent buckets: retry when the first one is full. */
  private noRoom(now: number): BudgetVerdict {
    const seconds = String(Math.max(1, Math.ceil((this.noRoomUntil - now) / 1000 - 1e-9)));
    return {
      allowed: false,
      headers: { "RateLimit-Limit": this.limitHeader, "RateLimit-Remaining": "0", "RateLimit-Reset": seconds, "Retry-After": seconds },
    };
  }
}

/**
 * Spends one request of the client's budget: adds the RateLimit-* headers to `responseHeaders`, or
 * throws 429 RATE_LIMITED carrying them and Retry-After. `subject` names whose budget it is in the message.
 */
export function spendBudget(budget: RequestBudget, clientId: string, responseHeaders: Record<string, string>, subject = "for this API client"): void {
  const verdict = budget.take(clientId);
  Object.assign(responseHeaders, verdict.headers);
  if (!verdict.allowed) {
    throw new AppError("RATE_LIMITED", `Too many requests ${subject}; retry after ${verdict.headers["Retry-After"]} s`, {
      headers: verdict.headers,
    });
  }
}
