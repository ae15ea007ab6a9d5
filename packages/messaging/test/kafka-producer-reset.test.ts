import { randomUUID } from 'node:crypto';
import { Logger, type INestMicroservice } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { createTestDatabase, describeWithKafka, eventually, freePort, type TestDatabase } from '@storage/testing';
import { deadLetterTopic, eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { testRelay } from './kafka-support';
import { PrivateBroker } from './private-broker';
import { ProduceCuttingProxy } from './produce-cutting-proxy';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer } from './support';

/*
 * Both producers (the relay's, the consumers' dead-letter one) are idempotent: the broker takes a producer's batches
 * in sequence only, and takes a batch at a sequence it already holds for a duplicate of it. A broker that goes down
 * after appending a batch and before answering leaves kafkajs believing the batch was not sent: it hands the
 * batch's sequence out again. What is sent next at that sequence is either refused as out of order, and every batch
 * after it for as long as that producer lives (the relay re-sending its stretch with what was written meanwhile: how
 * a CI run found it, the outage test stuck for two minutes), or, when it is one message like the one appended,
 * answered as a duplicate and dropped (a dead letter). Each must start a new producer after a failed send.
 */
describeWithKafka('producers after the broker went down before answering a batch', () => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `producer-reset-test-${randomUUID().slice(0, 8)}`;
  let proxy: ProduceCuttingProxy;
  let broker: PrivateBroker;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: INestMicroservice;
  const script = newScript();

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
    consumer = await startConsumer(
      dataSource,
      script,
      eventTransport({ group, topics: [BILLING], kafkaBrokers: brokers, databaseUrl: database.url, retry: { backoffMs: 10, attempts: 2 } }),
    );
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
    proxy.cutNextProduceAnswer(`relay-${SERVICE}`);
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

  it('dead-letters a message after a dead letter the broker appended unanswered', async () => {
    const rental = randomUUID();
    const [first, second] = [payment(rental, 10), payment(rental, 20)];
    script.poison.add(first.eventId);
    script.poison.add(second.eventId);
    const errors = jest.spyOn(Logger.prototype, 'error');
    // kafkajs' report of a batch whose handling failed: the consumer stops and starts again, the batch not committed.
    const batchFailed = () => errors.mock.calls.some(([message]) => String(message).startsWith('Crash:'));
    proxy.cutNextProduceAnswer(group);
    await recordPayment(dataSource, publisher, first);
    // The first is dead-lettered, its answer lost: the dead-letter send fails, so the batch is fetched again later.
    await eventually(() => expect(batchFailed()).toBe(true), { timeoutMs: 120_000, intervalMs: 250 });
    // Fetched again, the first is applied this time; the second is the next dead letter, on the same partition.
    script.poison.delete(first.eventId);
    await recordPayment(dataSource, publisher, second);
    proxy.restore();
    const letters: string[] = [];
    const reader = new Kafka({ brokers: [`127.0.0.1:${proxy.port}`], logLevel: logLevel.NOTHING }).consumer({ groupId: `reader-${randomUUID()}` });
    await reader.connect();
    await reader.subscribe({ topic: deadLetterTopic(BILLING), fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void letters.push(String(message.headers?.['event-id'])) });
    try {
      await eventually(() => expect(letters).toContain(second.eventId), { timeoutMs: 60_000, intervalMs: 250 });
    } finally {
      await reader.disconnect();
      errors.mockRestore();
    }
  }, 300_000);
});
