import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createEnvelope, PUBLIC_EVENT_TYPES, TOPICS, type EventEnvelope } from '@storage/domain';
import { OutboxPublisher, OutboxRelay } from '@storage/messaging';
import { createDataSource } from '@storage/persistence';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { startDispatcher, type DispatcherProcess } from './support/dispatcher-process';
import { seedEndpoint } from './support/endpoints';
import { freshGroup } from './support/kafka';
import { sampleEnvelope } from './support/events';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';
import { verify } from './support/verify';

const PRODUCER = 'test-producer';

/** Kafka mode: events leave through the outbox and the relay, and the dispatcher consumes them from Kafka. */
describeWithKafka('webhook-dispatcher end to end (Kafka transport)', (brokers) => {
  // A portfolio of this run only, so events other runs publish to the shared topics match no endpoint here.
  const portfolio = `kafka-e2e-${randomUUID().slice(0, 8)}`;
  const outbox = new OutboxPublisher(PRODUCER);
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let database: TestDatabase;
  let db: DataSource;
  let relay: OutboxRelay;
  let dispatcher: DispatcherProcess;
  const publish = (envelope: EventEnvelope) => db.transaction((manager) => outbox.publish(manager, envelope));

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'dispatcher-kafka-e2e' }).initialize();
    relay = new OutboxRelay({
      service: PRODUCER,
      kafkaBrokers: brokers,
      partitions: 3,
      databaseUrl: database.url,
      topics: TOPICS,
      batchSize: 100,
      pollIntervalMs: 200,
      lagReportIntervalMs: 60_000,
    });
    await relay.start(); // creates the topics, so the group can be placed at their ends
    dispatcher = await startDispatcher({
      DATABASE_URL: database.url,
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_PARTITIONS: '3',
      DISPATCHER_CONSUMER_GROUP: await freshGroup(brokers),
      WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
    });
  }, 90_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await relay?.stop();
    await db?.destroy();
    await database?.drop();
    await receiver?.stop();
    certificate?.cleanup();
  });

  it('delivers every event type and a test event, each verified by standardwebhooks', async () => {
    const { secret } = await seedEndpoint(db, { url: receiver.url('/kafka'), portfolio });
    const envelopes = PUBLIC_EVENT_TYPES.map((type) => sampleEnvelope(type, { portfolio }));
    for (const envelope of envelopes) await publish(envelope);
    await publish(createEnvelope({ type: 'webhook-test-event', payload: { portfolio, eventType: 'auction' }, occurredAt: new Date(), portfolio }));

    await eventually(() => expect(receiver.requests).toHaveLength(8), { timeoutMs: 60_000, intervalMs: 200 });
    const received = receiver.requests.map((request) => verify(secret, request).data[0]);
    expect(received.map((payload) => payload.event).sort()).toEqual([...PUBLIC_EVENT_TYPES, 'auction'].sort());
    for (const envelope of envelopes) expect(received.map((payload) => payload.eventId)).toContain(envelope.eventId);
    expect(await relay.lag()).toEqual({ events: 0, oldestMs: 0 });
  }, 90_000);
});
