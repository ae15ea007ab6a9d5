import { setTimeout as sleep } from 'node:timers/promises';
import type * as KafkaJs from 'kafkajs';
import type { ITopicConfig, Kafka, LogEntry } from 'kafkajs';
import { Logger } from '@nestjs/common';
import { describe } from '../consumer/deliver';
import { isTransient } from '../consumer/transient-error';

/*
 * kafkajs warns on every idempotent producer whose retries are bounded. Bounded is deliberate: a send that
 * gives up fails the relay's step, which backs off and re-sends the same batch from its saved position
 * (never a later one first), and the dead-letter producer's failure makes kafkajs redeliver the message.
 * What can follow is a duplicate, not a loss or a reorder of what is consumed, and consumers dedupe by event
 * id; Kafka-side exactly-once is not relied on. Unbounded retries would instead hang `send` (and shutdown)
 * for as long as the broker is away.
 */
const BOUNDED_RETRIES_WARNING = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

/**
 * kafkajs, loaded when a Kafka client is first built: a system without KAFKA_BROKERS (the embedded default) never
 * loads it, which spares each process about 10 MB of RSS.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajs = (): typeof KafkaJs => require('kafkajs') as typeof KafkaJs;

/** The one place Kafka clients are built, from the validated `KAFKA_BROKERS` list. */
export function createKafka(brokers: string, clientId: string): Kafka {
  const logger = new Logger(`kafkajs:${clientId}`);
  const { Kafka, logLevel } = kafkajs();
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
export const partitioner = (): KafkaJs.ICustomPartitioner => kafkajs().Partitioners.DefaultPartitioner;

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/** How long a service waits at boot for a broker that is still settling before it gives up. */
const BROKER_SETTLE_TIMEOUT_MS = 120_000;
const SETTLE_MAX_PAUSE_MS = 5_000;

/**
 * Subscribing to a missing topic fails on KRaft with kafkajs, so every topic is created before use. A broker
 * just started refuses connections, or lists a topic before it serves its partitions ("This server does not
 * host this topic-partition"): transient errors are retried with backoff, logged, for up to BROKER_SETTLE_TIMEOUT_MS.
 */
export async function ensureTopics(kafka: Kafka, topics: readonly string[], partitions: number): Promise<void> {
  const logger = new Logger('KafkaTopics');
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await createTopics(kafka, topics, partitions);
      if (attempt > 1) logger.log(`Kafka topics ready after ${seconds(Date.now() - started)} s`);
      return;
    } catch (error) {
      const waited = Date.now() - started;
      if (!isTransient(error)) throw error;
      if (waited >= BROKER_SETTLE_TIMEOUT_MS) throw new Error(`Kafka not ready after ${seconds(waited)} s: ${describe(error)}`, { cause: error });
      const pause = Math.min(SETTLE_MAX_PAUSE_MS, 250 * 2 ** (attempt - 1));
      logger.warn(
        `Kafka not ready yet (attempt ${attempt}, ${seconds(waited)} s of ${seconds(BROKER_SETTLE_TIMEOUT_MS)} s), retrying in ${pause} ms: ${describe(error)}`,
      );
      await sleep(pause);
    }
  }
}

async function createTopics(kafka: Kafka, topics: readonly string[], partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = topics.filter((topic) => !existing.has(topic)).map((topic) => ({ topic, numPartitions: partitions }));
    if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
    // Created is not served yet on a fresh broker: ready once every partition has a leader.
    const metadata = await admin.fetchTopicMetadata({ topics: [...topics] });
    const leaderless = metadata.topics.flatMap((topic) => topic.partitions.filter((p) => p.leader < 0).map((p) => `${topic.name}[${p.partitionId}]`));
    if (leaderless.length > 0) throw new (kafkajs().KafkaJSError)(`no leader yet for ${leaderless.join(', ')}`, { retriable: true });
  } finally {
    await admin.disconnect();
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
