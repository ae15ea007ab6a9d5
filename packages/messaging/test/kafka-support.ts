import { Kafka, logLevel } from 'kafkajs';
import { TOPICS } from '@storage/domain';
import { ensureTopics } from '../src/kafka/kafka-client';
import { deadLetterTopic, OutboxRelay, type OutboxRelayOptions } from '../src';
import { SERVICE } from './support';

/**
 * Creates the topic (and its dead-letter topic) if missing and starts `group` at its end: the shared broker's
 * topics keep earlier runs' messages, which a new group would otherwise read from the beginning.
 */
export async function startGroupAtEnd(brokers: string, group: string, topic: string): Promise<void> {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  // A fresh broker has no topics yet; their leaders must be elected before offsets can be read.
  await ensureTopics(kafka, [topic, deadLetterTopic(topic)], 3);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.setOffsets({ groupId: group, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
  } finally {
    await admin.disconnect();
  }
}

/** The relay of the test producer's outbox, polling often so a test never waits long for a lost notification. */
export function testRelayOptions(brokers: string, databaseUrl: string): OutboxRelayOptions {
  return {
    service: SERVICE,
    kafkaBrokers: brokers,
    partitions: 3,
    databaseUrl,
    topics: TOPICS,
    batchSize: 100,
    pollIntervalMs: 200,
    lagReportIntervalMs: 60_000,
  };
}

export function testRelay(brokers: string, databaseUrl: string): OutboxRelay {
  return new OutboxRelay(testRelayOptions(brokers, databaseUrl));
}
