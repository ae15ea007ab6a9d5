import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Kafka, logLevel } from 'kafkajs';
import { AppModule } from '../../src/app.module';
import { loadServiceConfig } from '../../src/config';

/** The scheduler app as main.ts wires it (timer off); with brokers, its relay carries the outbox to Kafka once initialised. */
export function createSchedulerApp(url: string, kafkaBrokers: string | undefined): Promise<NestFastifyApplication> {
  const config = loadServiceConfig({
    DATABASE_URL: url,
    SCHEDULER_TICK_SECONDS: '0',
    LOG_LEVEL: 'warn',
    ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}),
  });
  return NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, { url, embedded: false, release: async () => undefined }), new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
}

/**
 * A new consumer group named after `prefix`, starting at the end of the topics. Kafka topics outlive test
 * databases and hold other runs' events: such a group sees only what this test produces.
 */
export async function freshKafkaGroup(brokers: string, prefix: string, topics: readonly string[]): Promise<string> {
  const groupId = `${prefix}.test-${randomUUID()}`;
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: 3 })) });
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
    }
  } finally {
    await admin.disconnect();
  }
  return groupId;
}
