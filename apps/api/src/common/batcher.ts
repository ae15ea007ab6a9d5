export interface BatcherOptions<Item> {
  /** Batches running at once; calls made meanwhile wait and go together in the next. */
  concurrency: number;
  maxSize: number;
  /** Items of one key never run at once (a later one waits until the earlier one's batch is over). */
  key: (item: Item) => string;
}

interface Pending<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs concurrent calls together: `run` queues an item, and while `concurrency` batches are running, what
 * queues goes in the next batch as one `execute` call (one round trip for many requests). An idle batcher runs a
 * call at once, so batching adds no wait at low load and grows batches as load does. Two items of one key are
 * never in flight together, so batches running side by side never share one. When a batch of several
 * fails, each of its items is run alone, so one failing item fails only its own call.
 */
export class Batcher<Item, Result> {
  private readonly queue: Pending<Item, Result>[] = [];
  private readonly inFlight = new Set<string>();
  private running = 0;

  constructor(
    private readonly execute: (items: Item[]) => Promise<Result[]>,
    private readonly options: BatcherOptions<Item>,
  ) {}

  run(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.running < this.options.concurrency) {
      const { batch, keys } = this.takeBatch();
      if (batch.length === 0) return;
      this.running++;
      void this.settle(batch).finally(() => {
        for (const key of keys) this.inFlight.delete(key);
        this.running--;
        this.drain();
      });
    }
  }

  private takeBatch(): { batch: Pending<Item, Result>[]; keys: string[] } {
    const keys: string[] = [];
    const batch: Pending<Item, Result>[] = [];
    for (let index = 0; index < this.queue.length && batch.length < this.options.maxSize;) {
      const pending = this.queue[index];
      const key = this.options.key(pending.item);
      if (this.inFlight.has(key)) {
        index++;
        continue;
      }
      this.inFlight.add(key);
      keys.push(key);
      batch.push(pending);
      this.queue.splice(index, 1);
    }
    return { batch, keys };
  }

  private async settle(batch: Pending<Item, Result>[]): Promise<void> {
    try {
      const results = await this.execute(batch.map((pending) => pending.item));
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1) batch[0]?.reject(error);
      else await Promise.all(batch.map((pending) => this.settle([pending])));
    }
  }
}
