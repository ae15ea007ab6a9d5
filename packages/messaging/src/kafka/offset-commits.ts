import type { EachBatchPayload, Offsets } from 'kafkajs';

/** What committing needs of a kafkajs batch: its consumer's state and its group's resolved offsets. */
export type CommitSource = Pick<EachBatchPayload, 'isRunning' | 'uncommittedOffsets' | 'commitOffsetsIfNecessary'>;

/**
 * Commits a consumer group's resolved offsets at most once per interval, instead of after every batch as kafkajs
 * does with autoCommit: that commit is a broker round trip between a partition's batch and its next fetch, every
 * few milliseconds under load. A crash redelivers at most an interval's worth more (consumers dedupe by event id, as
 * after the embedded log's offsets, saved as often). Commits at once after a failed batch (kafkajs may restart the
 * consumer from the committed offsets), while the consumer stops, and when a rebalance starts (the broker takes the
 * commits of the generation ending until every member has joined again), and on `close` what is still uncommitted,
 * so a clean stop or a rebalance redelivers nothing (a refused commit: an interval's worth). A partition `withheld` answers true for is left out: a running
 * replay moved its committed offset back, and kafkajs still holds the position it had resolved before the seek lands.
 */
export class OffsetCommits {
  private latest: CommitSource | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly withheld: (topic: string, partition: number) => boolean = () => false,
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

  /** kafkajs is about to join the group again (its batches are done): the next owners start where this one got. Never throws. */
  rebalancing(): Promise<void> {
    return this.commitNow();
  }

  /** Commits what is resolved now, and fails if it could not (a running replay needs the group's position exact). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const source = this.latest;
    if (!source) return;
    const offsets = this.committable(source);
    if (offsets.topics.length > 0) await source.commitOffsetsIfNecessary(offsets);
  }

  private async commitNow(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      // A commit refused mid-rebalance: those messages are redelivered to the partition's next owner (deduplicated).
      this.onError(error);
    }
  }

  private committable(source: CommitSource): Offsets {
    const topics = source
      .uncommittedOffsets()
      .topics.map(({ topic, partitions }) => ({ topic, partitions: partitions.filter(({ partition }) => !this.withheld(topic, partition)) }))
      .filter(({ partitions }) => partitions.length > 0);
    return { topics };
  }
}
