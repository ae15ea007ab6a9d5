import type { Offsets } from 'kafkajs';
import { eventually } from '@storage/testing';
import { OffsetCommits, type CommitSource } from '../src/kafka/offset-commits';

/** A consumer group's resolved offsets as kafkajs keeps them, and the commits asked of it. */
function group(): { source: CommitSource; resolve: (offset: string) => void; commits: string[]; state: { running: boolean; refuse?: Error } } {
  const commits: string[] = [];
  const state: { running: boolean; refuse?: Error } = { running: true };
  let resolved: string | undefined;
  let committed: string | undefined;
  const source: CommitSource = {
    isRunning: () => state.running,
    uncommittedOffsets: () => ({ topics: resolved === committed ? [] : [{ topic: 't', partitions: [{ partition: 0, offset: resolved! }] }] }),
    commitOffsetsIfNecessary: async (offsets?: Offsets) => {
      if (state.refuse) throw state.refuse;
      const offset = offsets!.topics[0].partitions[0].offset;
      commits.push(offset);
      committed = offset;
    },
  };
  return { source, resolve: (offset) => (resolved = offset), commits, state };
}

describe('OffsetCommits (Kafka consumer offsets)', () => {
  it('commits within the interval what the batches resolved meanwhile, once, not after every batch', async () => {
    const { source, resolve, commits } = group();
    const errors: unknown[] = [];
    const commitsOf = new OffsetCommits(50, (error) => errors.push(error));
    for (const offset of ['1', '2', '3']) {
      resolve(offset);
      await commitsOf.afterBatch(source, false);
    }
    expect(commits).toEqual([]);
    await eventually(async () => expect(commits).toEqual(['3']));
    // A quiet stream's last batch is committed too, within the interval.
    resolve('4');
    await commitsOf.afterBatch(source, false);
    await eventually(async () => expect(commits).toEqual(['3', '4']));
    expect(errors).toEqual([]);
  });

  it('commits at once after a failed batch and while the consumer stops', async () => {
    const { source, resolve, commits, state } = group();
    const errors: unknown[] = [];
    const commitsOf = new OffsetCommits(60_000, (error) => errors.push(error));
    resolve('5');
    await commitsOf.afterBatch(source, true);
    expect(commits).toEqual(['5']);
    state.running = false;
    resolve('6');
    await commitsOf.afterBatch(source, false);
    expect(commits).toEqual(['5', '6']);
    expect(errors).toEqual([]);
  });

  it('commits what is uncommitted on close, and batches finishing after it at once', async () => {
    const { source, resolve, commits } = group();
    const errors: unknown[] = [];
    const commitsOf = new OffsetCommits(60_000, (error) => errors.push(error));
    resolve('7');
    await commitsOf.afterBatch(source, false);
    await commitsOf.close();
    expect(commits).toEqual(['7']);
    resolve('8');
    await commitsOf.afterBatch(source, false);
    expect(commits).toEqual(['7', '8']);
    // Nothing new: nothing is committed again.
    await commitsOf.close();
    expect(commits).toEqual(['7', '8']);
    expect(errors).toEqual([]);
  });

  it('reports a refused commit (a rebalance) instead of failing the batch', async () => {
    const { source, resolve, commits, state } = group();
    const errors: unknown[] = [];
    const commitsOf = new OffsetCommits(60_000, (error) => errors.push(error));
    state.refuse = new Error('REBALANCE_IN_PROGRESS');
    resolve('9');
    await expect(commitsOf.afterBatch(source, true)).resolves.toBeUndefined();
    expect(errors).toEqual([state.refuse]);
    expect(commits).toEqual([]);
  });

  it('leaves out a withheld partition (a running replay moved it back), and flush fails when a commit is refused', async () => {
    const { source, resolve, commits, state } = group();
    let withheld = true;
    const commitsOf = new OffsetCommits(
      60_000,
      () => undefined,
      () => withheld,
    );
    resolve('10');
    await commitsOf.afterBatch(source, true);
    await commitsOf.flush();
    expect(commits).toEqual([]);
    withheld = false;
    await commitsOf.flush();
    expect(commits).toEqual(['10']);
    state.refuse = new Error('REBALANCE_IN_PROGRESS');
    resolve('11');
    await expect(commitsOf.flush()).rejects.toThrow('REBALANCE_IN_PROGRESS');
  });
});
