import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC } from '@storage/domain';

/** A consumer group of this run, starting at the topics' ends: the shared broker keeps other runs' events. */
export async function freshGroup(brokers: string): Promise<string> {
  const groupId = `webhook-dispatcher-e2e-${randomUUID().slice(0, 8)}`;
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    for (const topic of [TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC]) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
    }
  } finally {
    await admin.disconnect();
  }
  return groupId;
}
