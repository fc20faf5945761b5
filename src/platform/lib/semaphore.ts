/**
 * At most `permits` tasks at once; up to `maxWaiting` more wait in memory, first come first served.
 * Beyond that a task is refused at once rather than queued without bound.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly permits: number, private readonly maxWaiting: number) {}

  /** Runs `task` when a permit is free; `refuse()` is thrown instead when the queue is full. */
  async run<T>(task: () => Promise<T>, refuse: () => Error): Promise<T> {
    if (this.active >= this.permits) {
      if (this.waiting.length >= this.maxWaiting) throw refuse();
      // The releasing task hands its permit over, so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
