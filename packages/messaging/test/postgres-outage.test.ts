import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { describeWithKafka, eventually } from '@storage/testing';
import { deadLetterTopic, eventTransport, OutboxPublisher } from '../src';
import { ensureTopics } from '../src/kafka/kafka-client';
import { PrivatePostgres } from './private-postgres';
import { BILLING, newScript, openDataSource, payment, SERVICE, startConsumer, type Script } from './support';

const BACKLOG = 1_500;

const APPLIED = sql<{ events: number; twice: number }, [group: string]>(
  `SELECT count(*)::int AS events, count(*) FILTER (WHERE times > 1)::int AS twice
       FROM (SELECT count(*) AS times FROM test_effects WHERE consumer_group = $1 GROUP BY event_id) AS applied`,
);
const DEAD_LETTERS = sql<{ dead: number }, []>('SELECT count(*)::int AS dead FROM dead_letters');

/** Counts the effects the test consumer applied, and the events applied more than once. */
async function appliedBy(dataSource: DataSource, group: string): Promise<{ events: number; twice: number }> {
  const [row] = await query(dataSource, APPLIED, [group]);
  return row;
}

/** Kills PostgreSQL once the consumer is part way, and starts it again once the handler has failed for a while. */
async function killMidDrain(postgres: PrivatePostgres, dataSource: DataSource, script: Script, group: string): Promise<number> {
  await eventually(async () => expect((await appliedBy(dataSource, group)).events).toBeGreaterThan(BACKLOG / 5), { timeoutMs: 60_000, intervalMs: 20 });
  await postgres.kill();
  const callsAtKill = script.calls.length;
  // Long enough down for the default policy (5 tries, about 1.5 s) to have given up on the messages under way.
  await eventually(() => expect(script.calls.length).toBeGreaterThan(callsAtKill + 30), { timeoutMs: 60_000, intervalMs: 100 });
  const failedWhileDown = script.calls.length - callsAtKill;
  await postgres.start();
  return failedWhileDown;
}

describe('PostgreSQL killed while the embedded consumer drains the outbox', () => {
  const group = 'pg-outage-embedded';
  let postgres: PrivatePostgres;
  let dataSource: DataSource;
  let consumer: INestMicroservice | undefined;
  const script: Script = newScript();

  beforeAll(async () => {
    postgres = await PrivatePostgres.create();
    await postgres.start();
    dataSource = await openDataSource(postgres.databaseUrl);
  }, 120_000);

  afterAll(async () => {
    await consumer?.close();
    await dataSource?.destroy();
    await postgres?.remove();
  }, 90_000);

  it('delivers every event exactly once after PostgreSQL comes back, dead-letters none', async () => {
    const rentals = Array.from({ length: 30 }, () => randomUUID());
    const publisher = new OutboxPublisher(SERVICE);
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < BACKLOG; i++) await publisher.publish(manager, payment(rentals[i % rentals.length], i + 1));
    });
    consumer = await startConsumer(dataSource, script, eventTransport({ group, topics: [BILLING], databaseUrl: postgres.databaseUrl }));

    const failedWhileDown = await killMidDrain(postgres, dataSource, script, group);

    await eventually(async () => expect(await appliedBy(dataSource, group)).toEqual({ events: BACKLOG, twice: 0 }), { timeoutMs: 120_000, intervalMs: 500 });
    const [{ dead }] = await query(dataSource, DEAD_LETTERS);
    expect(dead).toBe(0);
    process.stdout.write(`embedded: ${failedWhileDown} handler call(s) failed while PostgreSQL was down; ${BACKLOG} events applied once each\n`);
  }, 300_000);
});

/**
 * PostgreSQL killed (-9) while a consumer drains a Kafka backlog, then started again on the same data: every
 * event is applied exactly once, none dead-lettered, with no replay by hand. The webhook dispatcher and the
 * scheduler's billing consumer run this transport. Uses a PostgreSQL of its own and the shared broker.
 */
describeWithKafka('PostgreSQL killed while a Kafka consumer drains a backlog', (brokers) => {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  // A topic of its own: the shared broker's topics hold other runs' messages.
  const topic = `test.pg-outage-${randomUUID().slice(0, 8)}`;
  const group = `pg-outage-${randomUUID().slice(0, 8)}`;
  let postgres: PrivatePostgres;
  let dataSource: DataSource;
  let consumer: INestMicroservice | undefined;
  const script: Script = newScript();

  beforeAll(async () => {
    postgres = await PrivatePostgres.create();
    await postgres.start();
    dataSource = await openDataSource(postgres.databaseUrl);
  }, 120_000);

  afterAll(async () => {
    await consumer?.close();
    await dataSource?.destroy();
    await postgres?.remove();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, deadLetterTopic(topic)] }).catch(() => undefined);
    await admin.disconnect();
  }, 90_000);

  it('delivers every event exactly once after PostgreSQL comes back, dead-letters none', async () => {
    const rentals = Array.from({ length: 30 }, () => randomUUID());
    const events = Array.from({ length: BACKLOG }, (_, i) => payment(rentals[i % rentals.length], i + 1));
    await ensureTopics(kafka, [topic, deadLetterTopic(topic)], 3);
    const producer = kafka.producer();
    await producer.connect();
    for (let i = 0; i < events.length; i += 500) {
      const batch = events.slice(i, i + 500).map((event) => ({ key: event.payload.rentalRecordUuid, value: JSON.stringify(event) }));
      await producer.send({ topic, acks: -1, messages: batch });
    }
    await producer.disconnect();

    const strategy = eventTransport({ group, topics: [topic], kafkaBrokers: brokers, databaseUrl: postgres.databaseUrl });
    consumer = await startConsumer(dataSource, script, strategy);
    const failedWhileDown = await killMidDrain(postgres, dataSource, script, group);

    await eventually(async () => expect(await appliedBy(dataSource, group)).toEqual({ events: BACKLOG, twice: 0 }), { timeoutMs: 120_000, intervalMs: 500 });
    expect(await deadLetters()).toBe(0);
    process.stdout.write(`Kafka: ${failedWhileDown} handler call(s) failed while PostgreSQL was down; ${BACKLOG} events applied once each\n`);
  }, 300_000);

  async function deadLetters(): Promise<number> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchTopicOffsets(deadLetterTopic(topic));
      return offsets.reduce((sum, { high, low }) => sum + Number(high) - Number(low), 0);
    } finally {
      await admin.disconnect();
    }
  }
});
