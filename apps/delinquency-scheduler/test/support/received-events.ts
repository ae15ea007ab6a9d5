import { Controller, Module, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DataSource } from 'typeorm';
import { BILLING_EVENT_TYPES, BILLING_TOPIC, PUBLIC_EVENT_TYPES, TENANT_LIFECYCLE_TOPIC, topicFor, type EventEnvelope } from '@storage/domain';
import { eventTransport, type EventContext } from '@storage/messaging';
import { eventually } from '@storage/testing';
import { outboxEvents } from './outbox';
import { createSchedulerApp, freshKafkaGroup } from './scheduler-app';

const TOPICS = [TENANT_LIFECYCLE_TOPIC, BILLING_TOPIC];

interface Received {
  topic: string;
  envelope: EventEnvelope;
}

/** What a consumer of the scheduler's topics receives, through the embedded transport or Kafka. */
export interface ReceivedEvents {
  /**
   * The events about a rental the consumer received, once they are exactly what the scheduler emitted (its
   * outbox): each once, each topic in log order. Returned in emission order, which a broker keeps per topic only.
   */
  of(rentalRecordUuid: string): Promise<EventEnvelope[]>;
  close(): Promise<void>;
}

/** A consumer as the apps write them: an `@EventPattern` handler, here keeping every envelope with its topic. */
function recorderModule(received: Received[]): Type {
  @Controller()
  class Recorder {
    @EventPattern([...PUBLIC_EVENT_TYPES, ...BILLING_EVENT_TYPES])
    keep(@Payload() envelope: EventEnvelope, @Ctx() context: EventContext): void {
      received.push({ topic: context.topic, envelope });
    }
  }
  @Module({ controllers: [Recorder] })
  class RecorderModule {}
  return RecorderModule;
}

/**
 * A consumer group of the test's own on the lifecycle and billing topics. Embedded: the outbox read as the log.
 * Kafka: the scheduler app runs for its outbox relay to the broker, and the group starts at the end of the
 * shared topics.
 */
export async function receiveEvents(db: DataSource, url: string, kafkaBrokers: string | undefined): Promise<ReceivedEvents> {
  let relay: NestFastifyApplication | undefined;
  if (kafkaBrokers) {
    relay = await createSchedulerApp(url, kafkaBrokers);
    await relay.init();
  }
  const group = kafkaBrokers ? await freshKafkaGroup(kafkaBrokers, 'journey', TOPICS) : 'journey.test';
  const received: Received[] = [];
  const consumer: INestMicroservice = await NestFactory.createMicroservice(recorderModule(received), {
    strategy: eventTransport({ group, topics: TOPICS, kafkaBrokers, databaseUrl: url, partitions: 3, pollIntervalMs: 200 }),
    logger: ['error', 'warn'],
  });
  await consumer.listen();

  return {
    of: (rentalRecordUuid) =>
      eventually(
        async () => {
          const emitted = await outboxEvents(db, rentalRecordUuid);
          const got = received.filter((message) => message.envelope.key === rentalRecordUuid);
          // Which events arrived on which topic first, readable in a failure; then each topic's order and content.
          const arrived = got.map((message) => `${message.topic} ${message.envelope.eventId}`).sort();
          expect(arrived).toEqual(emitted.map((event) => `${topicFor(event.type)} ${event.eventId}`).sort());
          for (const topic of TOPICS) {
            const onTopic = got.filter((message) => message.topic === topic).map((message) => message.envelope);
            expect(onTopic).toEqual(emitted.filter((event) => topicFor(event.type) === topic));
          }
          const position = new Map(emitted.map((event, index) => [event.eventId, index]));
          return got.map((message) => message.envelope).sort((a, b) => position.get(a.eventId)! - position.get(b.eventId)!);
        },
        { timeoutMs: 30_000 },
      ),
    close: async () => {
      await consumer.close();
      await relay?.close();
    },
  };
}
