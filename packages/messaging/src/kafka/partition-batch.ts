import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { laneOf } from '../embedded/lanes';

/**
 * Handles a fetched batch of one partition: messages of one key one at a time in offset order, in lanes by key
 * hash, the lanes at once, so a batch's messages share the handlers' round trips (the dispatcher's fan-out
 * statement) instead of each waiting for the one before. The offset resolved is that of the contiguous prefix of
 * finished messages (at least once). After a failure no lane starts another message, and the failure is thrown
 * once the lanes under way have finished: the resolved prefix is committed and kafkajs fetches the rest again.
 */
export async function handlePartitionBatch(payload: EachBatchPayload, lanes: number, handle: (message: KafkaMessage) => Promise<void>): Promise<void> {
  const { messages } = payload.batch;
  const queues = Array.from({ length: lanes }, (): number[] => []);
  messages.forEach((message, index) => queues[laneOf(message.key?.toString('utf8') ?? null, lanes)].push(index));
  const finished = new Array<boolean>(messages.length).fill(false);
  let prefix = 0;
  let failure: { error: unknown } | undefined;
  const stop = (): boolean => failure !== undefined || !payload.isRunning() || payload.isStale();

  const drain = async (queue: number[]): Promise<void> => {
    for (const index of queue) {
      if (stop()) return;
      try {
        await handle(messages[index]);
        finished[index] = true;
        const before = prefix;
        while (prefix < messages.length && finished[prefix]) prefix++;
        if (prefix > before) payload.resolveOffset(messages[prefix - 1].offset);
        await payload.heartbeat();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(queues.filter((queue) => queue.length > 0).map(drain));
  if (failure) throw failure.error;
}
