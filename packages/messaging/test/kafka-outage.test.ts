import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { testRelay } from './kafka-support';
import { PrivateBroker } from './private-broker';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer } from './support';

/** Needs a broker it may stop: starts its own next to the shared one (KAFKA_BROKERS only enables the suite). */
describeWithKafka('Kafka broker outage', () => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `outage-test-${randomUUID().slice(0, 8)}`;
  let broker: PrivateBroker;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: INestMicroservice;

  beforeAll(async () => {
    broker = await PrivateBroker.create();
    await broker.start();
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    relay = testRelay(broker.brokers, database.url);
    await relay.start();
    const strategy = eventTransport({
      group,
      topics: [BILLING],
      kafkaBrokers: broker.brokers,
      databaseUrl: database.url,
      retry: { backoffMs: 10, attempts: 3 },
    });
    consumer = await startConsumer(dataSource, newScript(), strategy);
  }, 180_000);

  afterAll(async () => {
    await consumer?.close();
    await relay?.stop();
    await dataSource?.destroy();
    await database?.drop();
    await broker?.remove();
  }, 90_000);

  it('loses nothing and keeps per-key order when the broker stops while events are written and starts again', async () => {
    const rentals = Array.from({ length: 5 }, () => randomUUID());
    const written: EventEnvelope<'payment-recorded'>[] = [];
    let writing = true;
    // A producer that keeps committing events, whatever Kafka is doing.
    const writer = (async () => {
      for (let i = 1; writing; i++) {
        const event = payment(rentals[i % rentals.length], i);
        await recordPayment(dataSource, publisher, event);
        written.push(event);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const applied = async (): Promise<number> => (await effects(dataSource, group)).length;

    // A fresh broker elects its group coordinator first: allow for a slow start on a busy machine.
    await eventually(async () => expect(await applied()).toBeGreaterThan(20), { timeoutMs: 90_000, intervalMs: 250 });
    await broker.stop();
    const writtenWhileDown = written.length;
    // The relay cannot publish: its lag grows instead of events being dropped.
    await eventually(async () => expect((await relay.lag()).events).toBeGreaterThan(20), { timeoutMs: 60_000, intervalMs: 250 });
    await broker.start();
    await eventually(() => expect(written.length).toBeGreaterThan(writtenWhileDown + 50), { timeoutMs: 60_000 });
    writing = false;
    await writer;

    await eventually(async () => expect(await applied()).toBe(written.length), { timeoutMs: 120_000, intervalMs: 500 });
    const rows = await effects(dataSource, group);
    expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set(written.map((event) => event.eventId)));
    for (const rental of rentals) {
      const amounts = rows.filter((row) => row.rental === rental).map((row) => row.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    }
    expect(await relay.lag()).toEqual({ events: 0, oldestMs: 0 });
  }, 300_000);
});
