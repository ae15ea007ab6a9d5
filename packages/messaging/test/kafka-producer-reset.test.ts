import { randomUUID } from 'node:crypto';
import { Logger, type INestMicroservice } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { createTestDatabase, describeWithKafka, eventually, freePort, type TestDatabase } from '@storage/testing';
import { eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { testRelay } from './kafka-support';
import { PrivateBroker } from './private-broker';
import { ProduceCuttingProxy } from './produce-cutting-proxy';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer } from './support';

/*
 * The relay's producer is idempotent: the broker takes its batches in sequence only. A broker that goes down after
 * appending a batch and before answering leaves kafkajs believing the batch was not sent: it hands the batch's
 * sequence out again. The relay then re-sends from its saved position, with whatever was written meanwhile: a batch
 * at the same sequence but not the same, which the broker refuses as out of order, and every batch after it, for as
 * long as that producer lives (how a CI run found it: the outage test stuck for two minutes). The relay must start
 * a new producer after a failed send.
 */
describeWithKafka('the relay after the broker went down before answering a batch', () => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `producer-reset-test-${randomUUID().slice(0, 8)}`;
  let proxy: ProduceCuttingProxy;
  let broker: PrivateBroker;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: INestMicroservice;

  beforeAll(async () => {
    // Clients reach the broker through the proxy only: it is the address the broker gives them.
    const proxyPort = await freePort();
    broker = await PrivateBroker.create({ advertisedPort: proxyPort });
    proxy = await ProduceCuttingProxy.listen(proxyPort, () => Number(broker.brokers.split(':')[1]));
    await broker.start();
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    const brokers = `127.0.0.1:${proxy.port}`;
    relay = testRelay(brokers, database.url);
    await relay.start();
    consumer = await startConsumer(dataSource, newScript(), eventTransport({ group, topics: [BILLING], kafkaBrokers: brokers, databaseUrl: database.url }));
  }, 180_000);

  afterAll(async () => {
    await consumer?.close();
    await relay?.stop();
    await proxy?.close();
    await dataSource?.destroy();
    await database?.drop();
    await broker?.remove();
  }, 90_000);

  it('publishes the batch the broker appended unanswered, what was written while it was away, and what comes after', async () => {
    const rental = randomUUID();
    const written: EventEnvelope<'payment-recorded'>[] = [];
    const write = async (amount: number): Promise<void> => {
      const event = payment(rental, amount);
      await recordPayment(dataSource, publisher, event);
      written.push(event);
    };
    const allApplied = () =>
      eventually(async () => expect((await effects(dataSource, group)).map((row) => row.event_id)).toEqual(written.map((event) => event.eventId)), {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
    await write(1);
    await allApplied();

    // What the relay reports when a send fails and it backs off.
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const relayPaused = () => warnings.mock.calls.filter(([message]) => String(message).startsWith('relay paused')).length;
    proxy.cutNextProduceAnswer();
    await write(2);
    // kafkajs gives up on its own retries, and the relay's send fails: the relay backs off and tries again.
    await eventually(() => expect(relayPaused()).toBeGreaterThanOrEqual(2), { timeoutMs: 120_000, intervalMs: 250 });
    await write(3);
    proxy.restore();
    await allApplied();
    await write(4);
    await allApplied();
    expect(await relay.lag()).toEqual({ events: 0, oldestMs: 0 });
    warnings.mockRestore();
  }, 300_000);
});
