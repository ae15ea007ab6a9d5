import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { startGroupAtEnd, testRelay } from './kafka-support';
import { BILLING, effects, newScript, openDataSource, openTransaction, payment, SERVICE, startConsumer, writeState, type Script } from './support';

/** Rounds of a few producers at once: the loss needed no older transaction running elsewhere, as in a burst's first second. */
const ROUNDS = 150;
const MAX_WRITERS = 6;

interface Outcome {
  /** Per writer (one rental each), its committed events in commit order. */
  committed: Map<string, string[]>;
  rolledBack: Set<string>;
}

const pause = (maxMs: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));

/**
 * Producers at once, as the api's requests are: each transaction takes its id at a random moment (with a write
 * before its events, or with them), writes one to three events, pauses at random while others take later
 * positions and commit, then commits or rolls back. Transaction ids, log positions and commits therefore come in
 * every relative order. Each round runs 2 to MAX_WRITERS writers; a writer (one rental) runs one transaction a round.
 */
async function writeConcurrently(dataSource: DataSource, publisher: OutboxPublisher): Promise<Outcome> {
  const rentals = Array.from({ length: MAX_WRITERS }, () => randomUUID());
  const outcome: Outcome = { committed: new Map(rentals.map((rental) => [rental, []])), rolledBack: new Set() };
  for (let round = 0; round < ROUNDS; round++) {
    const writers = rentals.slice(0, 2 + Math.floor(Math.random() * (MAX_WRITERS - 1)));
    await Promise.all(
      writers.map(async (rental) => {
        const events = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, (_, i) => payment(rental, round * 10 + i + 1));
        await pause(5);
        const transaction = await openTransaction(dataSource);
        if (Math.random() < 0.5) {
          await writeState(transaction.manager, events[0]);
          await pause(5);
        }
        for (const event of events) await publisher.publish(transaction.manager, event);
        await pause(20);
        if (Math.random() < 0.25) {
          await transaction.rollback();
          for (const event of events) outcome.rolledBack.add(event.eventId);
        } else {
          await transaction.commit();
          outcome.committed.get(rental)!.push(...events.map((event) => event.eventId));
        }
      }),
    );
  }
  return outcome;
}

/** Every committed event handled exactly once, in commit order per rental; none that rolled back. */
async function expectEachCommittedEventHandledOnce(dataSource: DataSource, group: string, script: Script, outcome: Outcome): Promise<void> {
  const committedIds = [...outcome.committed.values()].flat();
  const mine = new Set([...committedIds, ...outcome.rolledBack]);
  await eventually(async () => expect((await effects(dataSource, group)).filter((row) => mine.has(row.event_id))).toHaveLength(committedIds.length), {
    timeoutMs: 60_000,
    intervalMs: 200,
  });
  const rows = await effects(dataSource, group);
  for (const [rental, committed] of outcome.committed) {
    expect(rows.filter((row) => row.rental === rental).map((row) => row.event_id)).toEqual(committed);
  }
  const calls = script.calls.filter((call) => mine.has(call.eventId));
  expect(calls.filter((call) => outcome.rolledBack.has(call.eventId))).toEqual([]);
  expect(calls.map((call) => call.eventId).sort()).toEqual([...committedIds].sort());
}

describe('the embedded log under many concurrent writers', () => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `stress-${randomUUID().slice(0, 8)}`;
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: INestMicroservice;
  let script: Script;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    script = newScript();
    consumer = await startConsumer(dataSource, script, eventTransport({ group, topics: [BILLING], databaseUrl: database.url }));
  });

  afterAll(async () => {
    await consumer?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('hands every committed event to the handler exactly once and none that rolled back', async () => {
    const outcome = await writeConcurrently(dataSource, publisher);
    await expectEachCommittedEventHandledOnce(dataSource, group, script, outcome);
  }, 120_000);
});

describeWithKafka('the Kafka relay under many concurrent writers', (brokers) => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `stress-kafka-${randomUUID().slice(0, 8)}`;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: INestMicroservice;
  let script: Script;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    relay = testRelay(brokers, database.url);
    await relay.start();
    await startGroupAtEnd(brokers, group, BILLING);
    script = newScript();
    consumer = await startConsumer(dataSource, script, eventTransport({ group, topics: [BILLING], kafkaBrokers: brokers, databaseUrl: database.url }));
  }, 60_000);

  afterAll(async () => {
    await consumer?.close();
    await relay?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('relays every committed event to the handler exactly once and none that rolled back', async () => {
    const outcome = await writeConcurrently(dataSource, publisher);
    await expectEachCommittedEventHandledOnce(dataSource, group, script, outcome);
  }, 120_000);
});
