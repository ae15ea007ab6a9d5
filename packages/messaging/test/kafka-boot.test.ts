import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { testRelay } from './kafka-support';
import { kafkaReadiness } from '../src/kafka/kafka-readiness';
import { PrivateBroker } from './private-broker';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer } from './support';

/** Starts the services with a broker of its own, while that broker is still starting (KAFKA_BROKERS only enables the suite). */
describeWithKafka('Kafka boot against a broker still starting', () => {
  const group = `boot-test-${randomUUID().slice(0, 8)}`;
  let broker: PrivateBroker;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay | undefined;
  let consumer: INestMicroservice | undefined;

  beforeAll(async () => {
    broker = await PrivateBroker.create();
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
  });

  afterAll(async () => {
    await consumer?.close();
    await relay?.stop();
    await dataSource?.destroy();
    await database?.drop();
    await broker?.remove();
  }, 90_000);

  it('waits for the broker (not ready meanwhile), creates the topics, then relays and consumes', async () => {
    // Not ready without the broker. Asked before it starts: asked while it starts, a broker up within the check's own
    // retries (jars cached, an idle machine) made the check pass, and the test fail, by timing alone.
    const readiness = kafkaReadiness(broker.brokers);
    await expect(readiness.check()).rejects.toThrow();
    const brokerStarted = broker.start();

    // As `npm start` does with a broker started just before it: the services do not wait for the broker first.
    relay = testRelay(broker.brokers, database.url);
    const relayStarted = relay.start();
    const consumerStarted = startConsumer(
      dataSource,
      newScript(),
      eventTransport({ group, topics: [BILLING], kafkaBrokers: broker.brokers, databaseUrl: database.url }),
    );
    await brokerStarted;
    await relayStarted;
    consumer = await consumerStarted;
    await readiness.check();

    const event = payment(randomUUID(), 7);
    await recordPayment(dataSource, new OutboxPublisher(SERVICE), event);
    await eventually(async () => expect((await effects(dataSource, group)).map((row) => row.event_id)).toEqual([event.eventId]), {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
  }, 240_000);
});
