import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { deadLetterTopic, eventTransport, OutboxPublisher, OutboxRelay } from '../src';
import { relayName } from '../src/embedded/advisory-lock';
import { replayKafka } from '../src/replay/kafka-replay';
import { isFinished } from '../src/replay/kafka-request-record';
import { requestReplay } from '../src/replay/request-replay';
import { startGroupAtEnd, testRelay, testRelayOptions } from './kafka-support';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer, type Script } from './support';

/** The service's rows at or before its relay's saved position (what the relay has published), and those after it. */
const PUBLISHED = sql<{ published: number; unpublished: number }, [relay: string, source: string]>(
  `SELECT count(*) FILTER (WHERE o.id <= p.position)::int AS published, count(*) FILTER (WHERE o.id > p.position)::int AS unpublished
     FROM outbox o, (SELECT coalesce((SELECT position FROM consumer_offsets WHERE consumer_group = $1), 0) AS position) p
    WHERE o.source = $2`,
);
const DATABASE_NOW = sql<{ from: Date }, []>('SELECT now() AS from');
const REQUEST_STATE = sql<{ consumedBefore: Record<string, string> }, [id: string]>(
  'SELECT consumed_before AS "consumedBefore" FROM replay_requests WHERE id = $1',
);
/** An outbox row of a topic of the test's own, as any app writes one (the relay sends envelopes as they are). */
const INSERT_ROW = sql<never, [topic: string, eventId: string]>(
  `INSERT INTO outbox (topic, key, type, event_id, source, envelope)
   VALUES ($1, $2::text, 'payment-recorded', $2::text, 'test-producer', json_build_object('eventId', $2::text, 'padding', repeat('x', 200)))`,
);

describeWithKafka('Kafka transport and outbox relay', (brokers) => {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const publisher = new OutboxPublisher(SERVICE);
  const group = `kafka-test-${randomUUID().slice(0, 8)}`;
  let database: TestDatabase;
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: INestMicroservice;
  let script: Script;

  const newRelay = (): OutboxRelay => testRelay(brokers, database.url);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    script = newScript();
    relay = newRelay();
    await relay.start();
    await startGroupAtEnd(brokers, group, BILLING);
    consumer = await startGroupConsumer();
  });

  const startGroupConsumer = (): Promise<INestMicroservice> =>
    startConsumer(
      dataSource,
      script,
      eventTransport({ group, topics: [BILLING], kafkaBrokers: brokers, databaseUrl: database.url, retry: { backoffMs: 10, attempts: 3 } }),
    );

  afterAll(async () => {
    await consumer?.close();
    await relay?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  const applied = async (eventIds: string[]): Promise<string[]> =>
    (await effects(dataSource, group)).map((row) => row.event_id).filter((id) => eventIds.includes(id));

  it('relays an event committed with its state change to a consumer, never one rolled back', async () => {
    const kept = payment(randomUUID(), 10);
    const rolledBack = payment(randomUUID(), 20);
    await expect(
      dataSource.transaction(async (manager) => {
        await publisher.publish(manager, rolledBack);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await recordPayment(dataSource, publisher, kept);
    await eventually(async () => expect(await applied([kept.eventId])).toEqual([kept.eventId]), { timeoutMs: 20_000 });
    expect(script.calls.map((call) => call.eventId)).not.toContain(rolledBack.eventId);
    expect(await relay.lag()).toEqual({ events: 0, oldestMs: 0 });
  });

  it('retries a failing handler and applies its effect once', async () => {
    const event = payment(randomUUID(), 30);
    script.failuresLeft.set(event.eventId, 2);
    await recordPayment(dataSource, publisher, event);
    await eventually(async () => expect(await applied([event.eventId])).toEqual([event.eventId]), { timeoutMs: 20_000 });
    expect(script.calls.filter((call) => call.eventId === event.eventId).map((call) => call.attempt)).toEqual([1, 2, 3]);
  });

  // Once a second; how soon is not asserted, which would depend on the machine's speed: a group that committed only
  // when it stops would never get there.
  it("commits the group's offsets after its last batch, while it keeps running", async () => {
    const event = payment(randomUUID(), 40);
    await recordPayment(dataSource, publisher, event);
    await eventually(async () => expect(await applied([event.eventId])).toEqual([event.eventId]), { timeoutMs: 20_000 });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await eventually(
        async () => {
          const ends = await admin.fetchTopicOffsets(BILLING);
          const [committed] = await admin.fetchOffsets({ groupId: group, topics: [BILLING] });
          const byPartition = (entries: { partition: number; offset: string }[]) => [...entries].sort((a, b) => a.partition - b.partition).map((e) => e.offset);
          expect(byPartition(committed.partitions)).toEqual(byPartition(ends.map(({ partition, high }) => ({ partition, offset: high }))));
        },
        { timeoutMs: 30_000 },
      );
    } finally {
      await admin.disconnect();
    }
  });

  it('sends a poison message to the dead-letter topic with its reason and goes on', async () => {
    const rental = randomUUID();
    const poison = payment(rental, 40);
    const next = payment(rental, 50);
    script.poison.add(poison.eventId);
    await recordPayment(dataSource, publisher, poison);
    await recordPayment(dataSource, publisher, next);
    await eventually(async () => expect(await applied([next.eventId])).toEqual([next.eventId]), { timeoutMs: 20_000 });
    const letters: { eventId: string; reason: string; group: string }[] = [];
    const reader = await readTopic(deadLetterTopic(BILLING), (message) =>
      letters.push({
        eventId: String(message.headers?.['event-id']),
        reason: String(message.headers?.['dlq-reason']),
        group: String(message.headers?.['dlq-consumer-group']),
      }),
    );
    try {
      await eventually(
        () =>
          expect(letters.find((letter) => letter.eventId === poison.eventId)).toEqual({
            eventId: poison.eventId,
            reason: `cannot apply payment ${poison.payload.paymentUuid}`,
            group,
          }),
        { timeoutMs: 20_000 },
      );
    } finally {
      await reader.disconnect();
    }
  });

  it('loses nothing and keeps per-key order when the relay is killed mid-batch and restarted', async () => {
    await relay.stop();
    const rentals = Array.from({ length: 10 }, () => randomUUID());
    const events = Array.from({ length: 1_000 }, (_, i) => payment(rentals[i % rentals.length], i + 1));
    await dataSource.transaction(async (manager) => {
      for (const event of events) await publisher.publish(manager, event);
    });
    const child = spawn(process.execPath, ['-e', RELAY_PROCESS], {
      env: { ...process.env, DATABASE_URL: database.url, KAFKA_BROKERS: brokers, SERVICE },
      stdio: 'ignore',
    });
    // Killed once part of the events are published: the batch under way is lost mid-flight.
    await eventually(
      async () => {
        const [{ published }] = await query(dataSource, PUBLISHED, [relayName(BILLING), SERVICE]);
        expect(published).toBeGreaterThan(100);
      },
      { timeoutMs: 30_000, intervalMs: 5 },
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const [{ unpublished }] = await query(dataSource, PUBLISHED, [relayName(BILLING), SERVICE]);
    expect(unpublished).toBeGreaterThan(0);

    relay = newRelay();
    await relay.start();
    const ids = events.map((event) => event.eventId);
    await eventually(async () => expect(await applied(ids)).toHaveLength(events.length), { timeoutMs: 60_000, intervalMs: 200 });
    const rows = await effects(dataSource, group);
    for (const rental of rentals) {
      const amounts = rows.filter((row) => row.rental === rental).map((row) => row.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    }
  }, 120_000);

  it("keeps a rental's order across producers: the relay publishes every service's rows in commit order, another's relay down or not", async () => {
    // Two apps write one rental's events (the api a payment, the scheduler a charge): the first from the other app.
    const rental = randomUUID();
    const first = payment(rental, 1);
    const second = payment(rental, 2);
    await recordPayment(dataSource, new OutboxPublisher('other-producer'), first);
    await recordPayment(dataSource, publisher, second);

    await eventually(async () => expect(await applied([first.eventId, second.eventId])).toHaveLength(2), { timeoutMs: 20_000 });
    // The other app's relay starting late neither publishes the rows again nor out of order.
    const otherRelay = new OutboxRelay({ ...testRelayOptions(brokers, database.url), service: 'other-producer' });
    await otherRelay.start();
    try {
      const third = payment(rental, 3);
      await recordPayment(dataSource, new OutboxPublisher('other-producer'), third);
      await eventually(async () => expect(await applied([third.eventId])).toHaveLength(1), { timeoutMs: 20_000 });
      const amounts = (await effects(dataSource, group)).filter((row) => row.rental === rental).map((row) => row.amount);
      expect(amounts).toEqual([1, 2, 3]);
    } finally {
      await otherRelay.stop();
    }
  });

  it("publishes a topic's rows, once, while the broker refuses another topic's", async () => {
    // Topics of this test alone: the broker refuses any batch for `refusing` (64 bytes at most), so its rows
    // cannot be published; the row of `taking`, written after them, must be all the same.
    const [refusing, taking] = ['refusing', 'taking'].map((name) => `test.relay-${name}-${randomUUID().slice(0, 8)}`);
    const admin = kafka.admin();
    await admin.connect();
    const received: string[] = [];
    const reader = kafka.consumer({ groupId: `relay-topics-${randomUUID().slice(0, 8)}` });
    const relays = new OutboxRelay({ ...testRelayOptions(brokers, database.url), topics: [refusing, taking] });
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          { topic: refusing, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '64' }] },
          { topic: taking, numPartitions: 1 },
        ],
      });
      const stuck = randomUUID();
      const wanted = randomUUID();
      await query(dataSource, INSERT_ROW, [refusing, stuck]);
      await query(dataSource, INSERT_ROW, [taking, wanted]);
      await reader.connect();
      await reader.subscribe({ topic: taking, fromBeginning: true });
      await reader.run({ eachMessage: async ({ message }) => void received.push(String(message.headers?.['event-id'])) });
      await relays.start();
      await eventually(() => expect(received).toEqual([wanted]), { timeoutMs: 20_000 });
      // Published and done with: only the refused row is left, and the other is not sent again with each retry of it.
      await eventually(async () => expect((await relays.lag()).events).toBe(1), { timeoutMs: 20_000 });
    } finally {
      await relays.stop();
      await reader.disconnect();
      await admin.deleteTopics({ topics: [refusing, taking] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 60_000);

  it('replays by timestamp (offsets moved back) with no effect applied twice, marking redeliveries', async () => {
    // The database's clock stamps the outbox rows, and so the Kafka messages; the window starts here.
    const [{ from }] = await query(dataSource, DATABASE_NOW);
    const rental = randomUUID();
    const day = Array.from({ length: 20 }, (_, i) => payment(rental, 2_000 + i));
    for (const event of day) await recordPayment(dataSource, publisher, event);
    const ids = day.map((event) => event.eventId);
    await eventually(async () => expect(await applied(ids)).toHaveLength(20), { timeoutMs: 30_000 });
    const before = await effects(dataSource, group);

    await consumer.close();
    const pool = new Pool({ connectionString: database.url, max: 1 });
    const lines: string[] = [];
    try {
      // The group turns Empty once its member has left.
      await eventually(() => replayKafka(pool, brokers, { group, from, to: undefined, redeliver: true }, (line) => lines.push(line)), {
        timeoutMs: 30_000,
        intervalMs: 500,
      });
    } finally {
      await pool.end();
    }
    expect(lines.some((line) => line.startsWith(`${BILLING}[`) && / offset \d+ -> \d+ /.test(line))).toBe(true);
    script.calls.length = 0;
    consumer = await startGroupConsumer();

    await eventually(() => expect(new Set(script.calls.filter((call) => ids.includes(call.eventId)).map((call) => call.eventId)).size).toBe(20), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(script.calls.filter((call) => ids.includes(call.eventId)).every((call) => call.redelivered)).toBe(true);
    // Other runs' events on the shared broker may add effects since; none of the events applied before is applied again.
    const after = await effects(dataSource, group);
    expect(after.slice(0, before.length)).toEqual(before);
    const earlier = new Set(before.map((row) => row.event_id));
    expect(after.slice(before.length).filter((row) => earlier.has(row.event_id))).toEqual([]);
  }, 120_000);

  /**
   * Replays, as the CLI does, the events of six keys while the group runs (alongside `during`, if given), then publishes
   * later events of the same keys: every replayed event is handled exactly once more, marked as a redelivery, the later
   * ones once and unmarked, in order per key, and no effect is applied twice. Returns the CLI's lines.
   */
  async function expectReplayWhileRunning(during: () => Promise<unknown> = async () => undefined): Promise<string[]> {
    const [{ from }] = await query(dataSource, DATABASE_NOW);
    const rentals = Array.from({ length: 6 }, () => randomUUID());
    const replayed = Array.from({ length: 30 }, (_, i) => payment(rentals[i % rentals.length], 3_000 + i));
    for (const event of replayed) await recordPayment(dataSource, publisher, event);
    const replayedIds = replayed.map((event) => event.eventId);
    await eventually(async () => expect(await applied(replayedIds)).toHaveLength(replayed.length), { timeoutMs: 30_000, intervalMs: 200 });
    const before = await effects(dataSource, group);
    script.calls.length = 0;

    const lines: string[] = [];
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      await Promise.all([replayKafka(pool, brokers, { group, from, to: undefined, redeliver: true }, (line) => lines.push(line)), during()]);
    } finally {
      await pool.end();
    }
    expect(lines[0]).toMatch(/is running: replay #\d+ requested/);
    expect(lines[lines.length - 1]).toMatch(/applied by the running consumers on 3 partition\(s\)$/);

    // Later events of the same keys follow the replayed ones in their partitions: once they are handled, so is the replay.
    const later = Array.from({ length: 12 }, (_, i) => payment(rentals[i % rentals.length], 4_000 + i));
    for (const event of later) await recordPayment(dataSource, publisher, event);
    const laterIds = later.map((event) => event.eventId);
    const callsOf = (ids: string[]) => script.calls.filter((call) => ids.includes(call.eventId));
    await eventually(() => expect(new Set(callsOf(laterIds).map((call) => call.eventId)).size).toBe(later.length), { timeoutMs: 60_000, intervalMs: 200 });

    expect(callsOf(replayedIds).map((call) => call.eventId)).toEqual(expect.arrayContaining(replayedIds));
    expect(callsOf(replayedIds)).toHaveLength(replayedIds.length);
    expect(callsOf(replayedIds).every((call) => call.redelivered)).toBe(true);
    expect(callsOf(laterIds)).toHaveLength(laterIds.length);
    expect(callsOf(laterIds).some((call) => call.redelivered)).toBe(false);
    const amountOf = new Map([...replayed, ...later].map((event) => [event.eventId, event.payload.amountInPennies]));
    for (const rental of rentals) {
      const ofRental = [...replayed, ...later].filter((event) => event.payload.rentalRecordUuid === rental).map((event) => event.eventId);
      const amounts = callsOf(ofRental).map((call) => amountOf.get(call.eventId)!);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    }
    // No effect applied twice: the replayed events were deduplicated, the later ones applied once.
    const after = await effects(dataSource, group);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).filter((row) => replayedIds.includes(row.event_id))).toEqual([]);
    return lines;
  }

  it('replays while two consumers of the group run, each on its partitions: every event since --from handled once more, later ones once, in order per key', async () => {
    const second = await startGroupConsumer();
    const admin = kafka.admin();
    await admin.connect();
    try {
      // Both members hold partitions (3 of them: two and one).
      await eventually(
        async () => {
          const [described] = (await admin.describeGroups([group])).groups;
          expect({ state: described.state, members: described.members.length }).toEqual({ state: 'Stable', members: 2 });
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      await expectReplayWhileRunning();
    } finally {
      await admin.disconnect();
      await second.close();
    }
  }, 180_000);

  it('replays while a member joins the running group (a rebalance around or amid the replay), all the same', async () => {
    let joining: INestMicroservice | undefined;
    try {
      await expectReplayWhileRunning(async () => (joining = await startGroupConsumer()));
    } finally {
      await joining?.close();
    }
  }, 180_000);

  it('applies the replay itself when the group stops before its members applied it', async () => {
    const [{ from }] = await query(dataSource, DATABASE_NOW);
    const rental = randomUUID();
    const day = Array.from({ length: 10 }, (_, i) => payment(rental, 6_000 + i));
    for (const event of day) await recordPayment(dataSource, publisher, event);
    const ids = day.map((event) => event.eventId);
    await eventually(async () => expect(await applied(ids)).toHaveLength(day.length), { timeoutMs: 30_000 });
    await consumer.close();
    // A member that knows nothing of replays (an older version of the service): the group runs, nobody applies it.
    const unaware = kafka.consumer({ groupId: group, sessionTimeout: 6_000, heartbeatInterval: 1_000 });
    await unaware.connect();
    await unaware.subscribe({ topic: BILLING });
    await unaware.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      const lines: string[] = [];
      const replay = replayKafka(pool, brokers, { group, from, to: undefined, redeliver: true }, (line) => lines.push(line), 50);
      await eventually(() => expect(lines.join('\n')).toMatch(/is running: replay #\d+ requested/), { timeoutMs: 60_000, intervalMs: 100 });
      await unaware.disconnect();
      await replay;
      expect(lines.join('\n')).toMatch(/stopped before applying replay #\d+ everywhere/);
      expect(lines.some((line) => line.startsWith(`${BILLING}[`) && / offset \d+ -> \d+ /.test(line))).toBe(true);
    } finally {
      await pool.end();
    }
    script.calls.length = 0;
    consumer = await startGroupConsumer();
    await eventually(() => expect(script.calls.filter((call) => ids.includes(call.eventId)).map((call) => call.eventId)).toEqual(ids), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(script.calls.filter((call) => ids.includes(call.eventId)).every((call) => call.redelivered)).toBe(true);
  }, 120_000);

  it('applies at start a replay requested while it was running, which it did not apply before it stopped', async () => {
    const [{ from }] = await query(dataSource, DATABASE_NOW);
    const rental = randomUUID();
    const day = Array.from({ length: 10 }, (_, i) => payment(rental, 5_000 + i));
    for (const event of day) await recordPayment(dataSource, publisher, event);
    const ids = day.map((event) => event.eventId);
    await eventually(async () => expect(await applied(ids)).toHaveLength(day.length), { timeoutMs: 30_000 });
    await consumer.close();
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      // As the CLI records it for a running group (whose members were all gone before they saw it).
      const id = await requestReplay(pool, { group, from, to: undefined, redeliver: true });
      script.calls.length = 0;
      consumer = await startGroupConsumer();
      await eventually(() => expect(script.calls.filter((call) => ids.includes(call.eventId)).map((call) => call.eventId)).toEqual(ids), {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
      expect(script.calls.filter((call) => ids.includes(call.eventId)).every((call) => call.redelivered)).toBe(true);
      const [{ consumedBefore }] = await query(pool, REQUEST_STATE, [id]);
      expect(isFinished(consumedBefore)).toBe(true);
    } finally {
      await pool.end();
    }
  }, 120_000);

  async function readTopic(topic: string, onMessage: (message: { headers?: Record<string, unknown> }) => void): Promise<Consumer> {
    const reader = kafka.consumer({ groupId: `reader-${randomUUID()}` });
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => onMessage({ headers: message.headers }) });
    return reader;
  }
});

/** A relay in its own process, so the test can kill it with SIGKILL like a crashed pod. */
const RELAY_PROCESS = `
const { OutboxRelay } = require(${JSON.stringify(path.join(__dirname, '..', 'dist'))});
const { TOPICS } = require('@storage/domain');
new OutboxRelay({ service: process.env.SERVICE, kafkaBrokers: process.env.KAFKA_BROKERS, partitions: 3, databaseUrl: process.env.DATABASE_URL,
  topics: TOPICS, batchSize: 50, pollIntervalMs: 200, lagReportIntervalMs: 60000 }).start();
`;
