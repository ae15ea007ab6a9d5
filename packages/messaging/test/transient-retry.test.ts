import { randomUUID } from 'node:crypto';
import { Controller, Global, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload, type CustomTransportStrategy, type Server } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { DatabaseError } from 'pg';
import { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { deadLetterTopic, EventContext, eventTransport, MessagingModule, OutboxPublisher, ProcessedEvents } from '../src';
import { query, sql } from '@storage/persistence';
import { BILLING, effects, INSERT_TEST_EFFECT, openDataSource, payment, SERVICE } from './support';

/** More failures than the retry policy's attempts: counted as attempts, they would dead-letter the event. */
const OUTAGE_FAILURES = 8;
const RETRY = { backoffMs: 10, attempts: 3 };
const DEAD_LETTERS = sql<{ event_id: string; attempts: number }, [group: string]>('SELECT event_id, attempts FROM dead_letters WHERE consumer_group = $1');
const DEAD_LETTERS_OF_EVENT = sql<{ dead: number }, [eventId: string]>('SELECT count(*)::int AS dead FROM dead_letters WHERE event_id = $1');

/** What the handler does per event id: fail like a database that is away or out of disk space, or always (poison). */
interface Faults {
  outageLeft: Map<string, number>;
  diskFull: Set<string>;
  poison: Set<string>;
  calls: string[];
}

/** The error pg raises when PostgreSQL terminates the connection (shutdown, crash, pg_terminate_backend). */
const terminated = (): DatabaseError => Object.assign(new DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01' });
/** The error pg raises when a write needs a page PostgreSQL cannot add: the disk is full. */
const diskFull = (): DatabaseError =>
  Object.assign(new DatabaseError('could not extend file "base/16384/17373": No space left on device', 0, 'error'), { code: '53100' });

async function startConsumer(dataSource: DataSource, faults: Faults, strategy: Server & CustomTransportStrategy): Promise<INestMicroservice> {
  @Controller()
  class PaymentsConsumer {
    constructor(private readonly processed: ProcessedEvents) {}

    @EventPattern('payment-recorded')
    async onPayment(@Payload() event: EventEnvelope<'payment-recorded'>, @Ctx() context: EventContext): Promise<void> {
      faults.calls.push(event.eventId);
      if (faults.poison.has(event.eventId)) throw new Error(`cannot apply payment ${event.payload.paymentUuid}`);
      const left = faults.outageLeft.get(event.eventId) ?? 0;
      if (left > 0) {
        faults.outageLeft.set(event.eventId, left - 1);
        throw faults.diskFull.has(event.eventId) ? diskFull() : terminated();
      }
      await this.processed.runOnce(context.group, event.eventId, async (manager) => {
        await query(manager, INSERT_TEST_EFFECT, [context.group, event.eventId, event.payload.rentalRecordUuid, event.payload.amountInPennies]);
      });
    }
  }

  @Global()
  @Module({ providers: [{ provide: DataSource, useValue: dataSource }], exports: [DataSource] })
  class TestDatabaseModule {}

  @Module({ imports: [TestDatabaseModule, MessagingModule.forRoot({ service: SERVICE, partitions: 3, relay: false })], controllers: [PaymentsConsumer] })
  class ConsumerModule {}

  const app = await NestFactory.createMicroservice(ConsumerModule, { strategy, logger: ['error'] });
  await app.listen();
  return app;
}

const newFaults = (): Faults => ({ outageLeft: new Map(), diskFull: new Set(), poison: new Set(), calls: [] });

describe('a handler failing with a transient error (embedded transport)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: INestMicroservice;
  const faults = newFaults();
  const group = 'transient-embedded';

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    consumer = await startConsumer(dataSource, faults, eventTransport({ group, topics: [BILLING], databaseUrl: database.url, retry: RETRY }));
  });

  afterAll(async () => {
    await consumer?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('is retried until it succeeds, never dead-lettered; a poison message still is', async () => {
    const publisher = new OutboxPublisher(SERVICE);
    const [flaky, poison, after] = [payment(randomUUID(), 1), payment(randomUUID(), 2), payment(randomUUID(), 3)];
    faults.outageLeft.set(flaky.eventId, OUTAGE_FAILURES);
    faults.poison.add(poison.eventId);
    await dataSource.transaction(async (manager) => {
      for (const event of [flaky, poison, after]) await publisher.publish(manager, event);
    });

    await eventually(
      async () => expect((await effects(dataSource, group)).map((row) => row.event_id)).toEqual(expect.arrayContaining([flaky.eventId, after.eventId])),
      {
        timeoutMs: 30_000,
      },
    );
    expect(faults.calls.filter((id) => id === flaky.eventId)).toHaveLength(OUTAGE_FAILURES + 1);
    await eventually(async () => {
      const dead = await query(dataSource, DEAD_LETTERS, [group]);
      expect(dead).toEqual([{ event_id: poison.eventId, attempts: RETRY.attempts }]);
    });
    expect((await effects(dataSource, group)).filter((row) => row.event_id === flaky.eventId)).toHaveLength(1);
  });

  it('waits out a database out of disk space instead of dead-lettering the message', async () => {
    const waiting = payment(randomUUID(), 5);
    faults.outageLeft.set(waiting.eventId, OUTAGE_FAILURES);
    faults.diskFull.add(waiting.eventId);
    await dataSource.transaction((manager) => new OutboxPublisher(SERVICE).publish(manager, waiting));

    await eventually(async () => expect((await effects(dataSource, group)).filter((row) => row.event_id === waiting.eventId)).toHaveLength(1), {
      timeoutMs: 30_000,
    });
    expect(faults.calls.filter((id) => id === waiting.eventId)).toHaveLength(OUTAGE_FAILURES + 1);
    const [{ dead }] = await query(dataSource, DEAD_LETTERS_OF_EVENT, [waiting.eventId]);
    expect(dead).toBe(0);
  });

  it('gives a message waiting for a dependency up when stopped (no wait for the outage), and handles it at the next start', async () => {
    const waiting = payment(randomUUID(), 4);
    faults.outageLeft.set(waiting.eventId, Number.MAX_SAFE_INTEGER);
    await dataSource.transaction((manager) => new OutboxPublisher(SERVICE).publish(manager, waiting));
    await eventually(() => expect(faults.calls.filter((id) => id === waiting.eventId).length).toBeGreaterThanOrEqual(3));
    await consumer.close();

    faults.outageLeft.delete(waiting.eventId);
    consumer = await startConsumer(dataSource, faults, eventTransport({ group, topics: [BILLING], databaseUrl: database.url, retry: RETRY }));
    await eventually(async () => expect((await effects(dataSource, group)).filter((row) => row.event_id === waiting.eventId)).toHaveLength(1));
    const [{ dead }] = await query(dataSource, DEAD_LETTERS_OF_EVENT, [waiting.eventId]);
    expect(dead).toBe(0);
  });
});

describeWithKafka('a handler failing with a transient error (Kafka transport)', (brokers) => {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  // A topic of its own: the shared broker's topics hold other runs' messages.
  const topic = `test.transient-${randomUUID().slice(0, 8)}`;
  const group = `transient-kafka-${randomUUID().slice(0, 8)}`;
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: INestMicroservice;
  const faults = newFaults();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    const strategy = eventTransport({ group, topics: [topic], kafkaBrokers: brokers, databaseUrl: database.url, retry: RETRY });
    consumer = await startConsumer(dataSource, faults, strategy);
  }, 60_000);

  afterAll(async () => {
    await consumer?.close();
    await dataSource?.destroy();
    await database?.drop();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, deadLetterTopic(topic)] }).catch(() => undefined);
    await admin.disconnect();
  }, 60_000);

  it('is retried until it succeeds without committing past it, never dead-lettered; a poison message still is', async () => {
    const [flaky, poison, after] = [payment(randomUUID(), 1), payment(randomUUID(), 2), payment(randomUUID(), 3)];
    faults.outageLeft.set(flaky.eventId, OUTAGE_FAILURES);
    faults.poison.add(poison.eventId);
    const producer = kafka.producer();
    await producer.connect();
    // One key: the three go to one partition, in order, so `after` waits for the flaky one.
    const key = flaky.payload.rentalRecordUuid;
    await producer.send({ topic, messages: [flaky, poison, after].map((event) => ({ key, value: JSON.stringify(event) })) });
    await producer.disconnect();

    await eventually(async () => expect((await effects(dataSource, group)).map((row) => row.event_id)).toEqual([flaky.eventId, after.eventId]), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    expect(faults.calls.filter((id) => id === flaky.eventId)).toHaveLength(OUTAGE_FAILURES + 1);
    expect(await deadLetteredIds()).toEqual([poison.eventId]);
  }, 60_000);

  it('gives a message waiting for a dependency up when stopped, uncommitted, and handles it at the next start', async () => {
    const waiting = payment(randomUUID(), 4);
    faults.outageLeft.set(waiting.eventId, Number.MAX_SAFE_INTEGER);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ key: waiting.payload.rentalRecordUuid, value: JSON.stringify(waiting) }] });
    await producer.disconnect();
    await eventually(() => expect(faults.calls.filter((id) => id === waiting.eventId).length).toBeGreaterThanOrEqual(3), { timeoutMs: 30_000 });
    await consumer.close();

    faults.outageLeft.delete(waiting.eventId);
    consumer = await startConsumer(
      dataSource,
      faults,
      eventTransport({ group, topics: [topic], kafkaBrokers: brokers, databaseUrl: database.url, retry: RETRY }),
    );
    await eventually(async () => expect((await effects(dataSource, group)).filter((row) => row.event_id === waiting.eventId)).toHaveLength(1), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
  }, 60_000);

  /** Event ids on the topic's dead-letter topic. */
  async function deadLetteredIds(): Promise<string[]> {
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(deadLetterTopic(topic));
    await admin.disconnect();
    const expected = ends.reduce((sum, { high, low }) => sum + Number(high) - Number(low), 0);
    const reader = kafka.consumer({ groupId: `${group}-dlq-reader` });
    const ids: string[] = [];
    await reader.connect();
    await reader.subscribe({ topic: deadLetterTopic(topic), fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void ids.push((JSON.parse(message.value!.toString()) as { eventId: string }).eventId) });
    await eventually(() => expect(ids).toHaveLength(expected), { timeoutMs: 20_000 });
    await reader.disconnect();
    return ids;
  }
});
