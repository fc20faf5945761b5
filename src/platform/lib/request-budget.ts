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

/**
 * The request budget of every API client: a token bucket per client, refilled continuously at `rps`
 * up to `burst`. It lives in this process's memory (no database round trip on the hot path), so with
 * N API processes a client may reach N times the budget in total.
 *
 * Headers: `RateLimit-Limit` is the burst (what a full bucket allows at once), `RateLimit-Remaining`
 * the whole requests left now, `RateLimit-Reset` the seconds until the bucket is full again; a refusal
 * adds `Retry-After`, the seconds until one request fits.
 */
export class RequestBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly limitHeader: string;

  constructor(private readonly settings: BudgetSettings, private readonly now: () => number = () => performance.now()) {
    this.perMs = settings.rps / 1000;
    this.limitHeader = String(settings.burst);
  }

  take(clientId: string): BudgetVerdict {
    const now = this.now();
    const { burst } = this.settings;
    let bucket = this.buckets.get(clientId);
    if (bucket === undefined) {
      bucket = { tokens: burst, at: now };
      this.add(clientId, bucket);
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

  /** Whole seconds until `missing` tokens have been added. */
  private secondsUntil(missing: number): number {
    // Rounding noise of the refill arithmetic must not turn an exact 1 s into 2 s.
    return missing <= 1e-9 ? 0 : Math.ceil(missing / this.settings.rps - 1e-9);
  }

  /** Idle buckets are full, so forgetting them changes nothing; the map stays bounded. */
  private add(clientId: string, bucket: Bucket): void {
    if (this.buckets.size >= MAX_BUCKETS) {
      const fullAfterMs = this.settings.burst / this.perMs;
      for (const [key, other] of this.buckets) {
        if (bucket.at - other.at >= fullAfterMs) this.buckets.delete(key);
      }
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(clientId, bucket);
  }
}

/**
 * Spends one request of the client's budget: adds the RateLimit-* headers to `responseHeaders`, or
 * throws 429 RATE_LIMITED carrying them and Retry-After.
 */
export function spendBudget(budget: RequestBudget, clientId: string, responseHeaders: Record<string, string>): void {
  const verdict = budget.take(clientId);
  Object.assign(responseHeaders, verdict.headers);
  if (!verdict.allowed) {
    throw new AppError("RATE_LIMITED", `Too many requests for this API client; retry after ${verdict.headers["Retry-After"]} s`, {
      headers: verdict.headers,
    });
  }
}
