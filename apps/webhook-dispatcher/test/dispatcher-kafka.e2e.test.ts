import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createEnvelope, PUBLIC_EVENT_TYPES, TOPICS, type EventEnvelope } from '@storage/domain';
import { OutboxPublisher, OutboxRelay } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { startDispatcher, type DispatcherProcess } from './support/dispatcher-process';
import { seedEndpoint } from './support/endpoints';
import { freshGroup } from './support/kafka';
import { sampleEnvelope } from './support/events';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';
import { verify } from './support/verify';

const PRODUCER = 'test-producer';
const REPLAY_CLI = path.join(__dirname, '..', '..', '..', 'packages', 'messaging', 'dist', 'cli.js');
const DATABASE_NOW = sql<{ now: Date }, []>('SELECT now()');

/** `npm run cli -- replay ...` on Kafka, as its own process. */
function replayCli(databaseUrl: string, brokers: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [REPLAY_CLI, 'replay', ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

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
  let group: string;
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
      DISPATCHER_CONSUMER_GROUP: (group = await freshGroup(brokers)),
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

  it('replays while the dispatcher runs: its consumer moves its own partitions; what the replay asks is sent again once, nothing else twice, nothing lost', async () => {
    await seedEndpoint(db, { url: receiver.url('/replay'), portfolio });
    const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);
    const eventIds = () => requestsTo('/replay').map((request) => (JSON.parse(request.body) as { data: { eventId: string }[] }).data[0].eventId);
    // The database's clock stamps the outbox rows, and so the Kafka messages.
    const [{ now: from }] = await query(db, DATABASE_NOW);
    const replayed = sampleEnvelope('moved-in', { portfolio });
    await publish(replayed);
    await eventually(() => expect(eventIds()).toEqual([replayed.eventId]), { timeoutMs: 60_000, intervalMs: 200 });

    const { status, output } = await replayCli(database.url, brokers, '--group', group, '--from', from.toISOString(), '--redeliver');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('is running: replay #') });
    expect(output).toContain('applied by the running consumers');

    const after = sampleEnvelope('moved-out', { portfolio });
    await publish(after);
    await eventually(() => expect(eventIds().sort()).toEqual([replayed.eventId, replayed.eventId, after.eventId].sort()), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(eventIds().filter((id) => id === after.eventId)).toHaveLength(1);
  }, 120_000);
});
