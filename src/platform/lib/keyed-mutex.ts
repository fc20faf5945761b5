/** In-process mutual exclusion per key: callers holding the same key run one after another. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` holding every key, taken in the order given (give them in one order everywhere). */
  async withKeys<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const releases: Array<() => void> = [];
    try {
      for (const key of keys) releases.push(await this.acquire(key));
      return await task();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous ? previous.then(() => held) : held;
    this.tails.set(key, tail);
    if (previous) await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
