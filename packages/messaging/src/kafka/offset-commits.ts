import type { EachBatchPayload } from 'kafkajs';

/** What committing needs of a kafkajs batch: its consumer's state and its group's resolved offsets. */
export type CommitSource = Pick<EachBatchPayload, 'isRunning' | 'uncommittedOffsets' | 'commitOffsetsIfNecessary'>;

/**
 * Commits a consumer group's resolved offsets at most once per interval, instead of after every batch as kafkajs
 * does with autoCommit: that commit is a broker round trip between a partition's batch and its next fetch, every
 * few milliseconds under load. A crash or a rebalance redelivers at most an interval's worth more (consumers dedupe
 * by event id, as after the embedded log's offsets, saved as often). Commits at once after a failed batch (kafkajs
 * may restart the consumer from the committed offsets) and while the consumer stops, and on `close` what is still
 * uncommitted, so a clean stop redelivers nothing.
 */
export class OffsetCommits {
  private latest: CommitSource | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** A batch is done (its finished prefix resolved): commits within the interval, or now after a failure or when stopping. */
  async afterBatch(source: CommitSource, failed: boolean): Promise<void> {
    this.latest = source;
    if (failed || this.closing || !source.isRunning()) return this.commitNow();
    this.timer ??= setTimeout(() => void this.commitNow(), this.intervalMs);
  }

  /** Before the consumer disconnects: commits what is resolved; batches finishing later commit at once. */
  async close(): Promise<void> {
    this.closing = true;
    await this.commitNow();
  }

  private async commitNow(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const source = this.latest;
    if (!source) return;
    try {
      const offsets = source.uncommittedOffsets();
      if (offsets.topics.length > 0) await source.commitOffsetsIfNecessary(offsets);
    } catch (error) {
      // A commit refused mid-rebalance: those messages are redelivered to the partition's next owner (deduplicated).
      this.onError(error);
    }
  }
}
