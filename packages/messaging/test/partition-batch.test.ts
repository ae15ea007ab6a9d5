import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { handlePartitionBatch } from '../src/kafka/partition-batch';

const message = (offset: number, key: string | null): KafkaMessage => ({
  offset: String(offset),
  key: key === null ? null : Buffer.from(key),
  value: Buffer.from('{}'),
  timestamp: '0',
  attributes: 0,
  headers: {},
});

function batchOf(messages: KafkaMessage[]): { payload: EachBatchPayload; resolved: string[] } {
  const resolved: string[] = [];
  const payload = {
    batch: { topic: 't', partition: 0, messages },
    resolveOffset: (offset: string) => resolved.push(offset),
    heartbeat: async () => undefined,
    isRunning: () => true,
    isStale: () => false,
  } as unknown as EachBatchPayload;
  return { payload, resolved };
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('handlePartitionBatch', () => {
  it('keeps each key in offset order, runs keys at once, and resolves only the finished prefix', async () => {
    const messages = [message(0, 'a'), message(1, 'b'), message(2, 'a'), message(3, 'b'), message(4, null), message(5, 'a')];
    const { payload, resolved } = batchOf(messages);
    const handled: string[] = [];
    let running = 0;
    let concurrent = 0;
    await handlePartitionBatch(payload, 8, async (m) => {
      running++;
      concurrent = Math.max(concurrent, running);
      // Key a is slow, so later messages of other keys finish before earlier ones of a.
      await tick(m.key?.toString() === 'a' ? 20 : 1);
      handled.push(m.offset);
      running--;
    });
    const order = (key: string | null) => messages.filter((m) => (m.key?.toString() ?? null) === key).map((m) => m.offset);
    for (const key of ['a', 'b', null]) expect(handled.filter((offset) => order(key).includes(offset))).toEqual(order(key));
    expect(concurrent).toBeGreaterThan(1);
    // Resolved offsets only grow, and each is the end of a prefix of finished messages.
    expect(resolved.map(Number)).toEqual([...resolved.map(Number)].sort((x, y) => x - y));
    expect(resolved[resolved.length - 1]).toBe('5');
  });

  it('after a failure starts no other message, resolves the finished prefix and throws', async () => {
    const messages = [message(0, 'a'), message(1, 'b'), message(2, 'a'), message(3, 'b')];
    const { payload, resolved } = batchOf(messages);
    const handled: string[] = [];
    const failure = new Error('dead letter not written');
    await expect(
      handlePartitionBatch(payload, 8, async (m) => {
        if (m.offset === '1') throw failure;
        await tick(5);
        handled.push(m.offset);
      }),
    ).rejects.toBe(failure);
    expect(handled).toEqual(['0']);
    expect(resolved).toEqual(['0']);
  });
});
