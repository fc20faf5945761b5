/**
 * Group work of jobs running at the same time into one call: an item waits while a batch is under way, then
 * goes with everything that queued meanwhile (group commit). With no batch under way an item goes at the next
 * turn of the event loop, with whatever joined it by then, so a lone job waits for nothing. `run` answers one
 * result per item, in order; when a batch of several fails, each item runs again alone, so one bad item fails
 * only its own job.
 */
export class Batcher<I, R> {
  private queue: Array<{ item: I; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly run: (items: I[]) => Promise<R[]>,
    private readonly maxBatch = 100,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.run(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(results[i]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          else await Promise.all(batch.map((b) => this.run([b.item]).then(([result]) => b.resolve(result!), b.reject)));
        }
      }
    } finally {
      this.running = false;
    }
  }
}
