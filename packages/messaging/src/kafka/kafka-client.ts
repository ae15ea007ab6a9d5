import { Kafka, logLevel, Partitioners, type ITopicConfig, type LogEntry } from 'kafkajs';
import { Logger } from '@nestjs/common';

/*
 * kafkajs warns on every idempotent producer whose retries are bounded. Bounded is deliberate: a send that
 * gives up fails the relay's step, which backs off and re-sends the same batch from its saved position
 * (never a later one first), and the dead-letter producer's failure makes kafkajs redeliver the message.
 * What can follow is a duplicate, not a loss or a reorder of what is consumed, and consumers dedupe by event
 * id; Kafka-side exactly-once is not relied on. Unbounded retries would instead hang `send` (and shutdown)
 * for as long as the broker is away.
 */
const BOUNDED_RETRIES_WARNING = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

/** The one place Kafka clients are built, from the validated `KAFKA_BROKERS` list. */
export function createKafka(brokers: string, clientId: string): Kafka {
  const logger = new Logger(`kafkajs:${clientId}`);
  return new Kafka({
    clientId,
    brokers: brokers.split(','),
    connectionTimeout: 3_000,
    // Our own loops retry with backoff; kafkajs' own retries only need to cover a short blip.
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5_000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      if (entry.log.message === BOUNDED_RETRIES_WARNING) return;
      const line = `${entry.log.message}${entry.log.error ? `: ${String(entry.log.error)}` : ''}`;
      if (entry.level <= logLevel.ERROR) logger.error(line);
      else logger.warn(line);
    },
  });
}

/** Explicit, so kafkajs prints no partitioner warning; the default murmur2 keeps one key on one partition. */
export const PARTITIONER = Partitioners.DefaultPartitioner;

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/** Subscribing to a missing topic fails on KRaft with kafkajs, so every topic is created before use. */
export async function ensureTopics(kafka: Kafka, topics: readonly string[], partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = topics.filter((topic) => !existing.has(topic)).map((topic) => ({ topic, numPartitions: partitions }));
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}
