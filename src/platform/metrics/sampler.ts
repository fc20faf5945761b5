/** How old a sample may be before a scrape takes a new one. */
export const SAMPLE_MAX_AGE_MS = 15_000;

export interface SamplerOptions {
  maxAgeMs?: number;
  /** The clock (milliseconds), injectable for tests. */
  now?: () => number;
  /** Told when a sample could not be taken (the previous one is kept). */
  onError?: (error: unknown) => void;
}

/**
 * A value read lazily, on demand, at most once per `maxAgeMs`: a scrape within that age gets the last sample, and
 * scrapes arriving while a sample is being taken share it. A failed sample keeps the previous value (undefined
 * before the first) and is not tried again before `maxAgeMs` either, so a database that is down costs one attempt
 * per period, not one per scrape.
 */
export class Sampler<T> {
  private value: T | undefined;
  private takenAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<T | undefined> | undefined;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly take: () => Promise<T>,
    private readonly options: SamplerOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? SAMPLE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The current sample: the last one while it is young enough, otherwise a new one. */
  get(): Promise<T | undefined> {
    if (this.pending) return this.pending;
    if (this.now() - this.takenAt < this.maxAgeMs) return Promise.resolve(this.value);
    this.takenAt = this.now();
    this.pending = this.take().then(
      (value) => (this.value = value),
      (error: unknown) => {
        this.options.onError?.(error);
        return this.value;
      },
    ).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }
}
