import { randomUUID } from 'node:crypto';
import { Logger, type INestMicroservice } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { eventTransport, OUTBOX_CHANNEL, OutboxPublisher } from '../src';
import { replayEmbedded } from '../src/replay/embedded-replay';
import { BILLING, effects, newScript, openDataSource, payment, recordPayment, SERVICE, startConsumer as startTestConsumer, type Script } from './support';

const OUTBOX_EVENT = sql<{ event_id: string }, [eventId: string]>('SELECT event_id FROM outbox WHERE event_id = $1');
const DEAD_LETTER = sql<{ topic: string; reason: string; attempts: number }, [group: string, eventId: string]>(
  'SELECT topic, reason, attempts FROM dead_letters WHERE consumer_group = $1 AND event_id = $2',
);
const DEAD_LETTER_OF_EVENT = sql<{ reason: string; attempts: number }, [eventId: string]>('SELECT reason, attempts FROM dead_letters WHERE event_id = $1');
const INSERT_UNCHECKED_EVENT = sql<never, [topic: string, eventId: string, source: string, envelope: string]>(
  `INSERT INTO outbox (topic, key, type, event_id, source, envelope) VALUES ($1, NULL, 'payment-recorded', $2, $3, $4)`,
);
const STORED_ENVELOPE = sql<{ text: string }, [eventId: string]>('SELECT envelope::text AS text FROM outbox WHERE event_id = $1');
const NOTIFY = sql<{ pg_notify: string }, [channel: string]>(`SELECT pg_notify($1, '')`);

describe('embedded transport (outbox as the log)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: INestMicroservice;
  let script: Script;
  const publisher = new OutboxPublisher(SERVICE);
  const group = 'embedded-test';

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    script = newScript();
    consumer = await startConsumer();
  });

  afterAll(async () => {
    await consumer.close();
    await dataSource.destroy();
    await database.drop();
  });

  function startConsumer(): Promise<INestMicroservice> {
    const strategy = eventTransport({ group, topics: [BILLING], databaseUrl: database.url, retry: { backoffMs: 10, attempts: 3 } });
    return startTestConsumer(dataSource, script, strategy);
  }

  it('delivers an event committed with its state change, and never one whose transaction rolled back', async () => {
    const rental = randomUUID();
    const kept = payment(rental, 111);
    const rolledBack = payment(rental, 222);
    await expect(
      dataSource.transaction(async (manager) => {
        await publisher.publish(manager, rolledBack);
        throw new Error('business rule refused the payment');
      }),
    ).rejects.toThrow('business rule');
    await recordPayment(dataSource, publisher, kept);
    await eventually(async () => expect(await effects(dataSource, group)).toContainEqual({ event_id: kept.eventId, rental, amount: 111 }));
    // The later event was handled, so the earlier rolled-back one was passed, not waited for.
    expect(script.calls.map((call) => call.eventId)).not.toContain(rolledBack.eventId);
  });

  it('keeps an envelope as its producer wrote it, its fields in their order, and delivers it', async () => {
    const envelope = payment(randomUUID(), 333);
    await recordPayment(dataSource, publisher, envelope);
    const [stored] = await query(dataSource, STORED_ENVELOPE, [envelope.eventId]);
    expect(stored?.text).toBe(JSON.stringify(envelope));
    await eventually(async () => expect(script.calls.map((call) => call.eventId)).toContain(envelope.eventId));
  });

  it('refuses to publish outside a transaction', async () => {
    await expect(publisher.publish(dataSource.manager, payment(randomUUID()))).rejects.toThrow('transaction');
  });

  it('prepares its outbox statement once per connection instead of planning it for every event', async () => {
    const PREPARED = sql<{ executions: number }>(
      `SELECT (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements WHERE name LIKE 'outbox_insert_and_notify%'`,
    );
    const runner = dataSource.createQueryRunner();
    try {
      const [before] = await query(runner, PREPARED);
      for (let i = 0; i < 3; i += 1) {
        await runner.startTransaction();
        await publisher.publish(runner.manager, payment(randomUUID()));
        await runner.commitTransaction();
      }
      // One statement on the connection (whether an earlier test's use prepared it or this one did), run 3 times more.
      expect(await query(runner, PREPARED)).toEqual([{ executions: (before?.executions ?? 0) + 3 }]);
    } finally {
      await runner.release();
    }
  });

  it('keeps per-key order and sees a row that commits after a later one', async () => {
    const rental = randomUUID();
    const first = payment(rental, 1);
    const second = payment(rental, 2);
    // `first` takes the lower log position but commits after `second`: the reader must not skip it.
    let releaseFirst!: () => void;
    let firstWritten!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const firstInOutbox = new Promise<void>((resolve) => (firstWritten = resolve));
    const firstDone = dataSource.transaction(async (manager) => {
      await publisher.publish(manager, first);
      firstWritten();
      await firstHeld;
    });
    await firstInOutbox;
    await recordPayment(dataSource, publisher, second);
    // The consumer has seen `second` committed while `first` is still open.
    await eventually(async () => expect(await query(dataSource, OUTBOX_EVENT, [second.eventId])).toHaveLength(1));
    releaseFirst();
    await firstDone;
    await eventually(async () => {
      const mine = (await effects(dataSource, group)).filter((row) => row.rental === rental);
      expect(mine.map((row) => row.amount)).toEqual([1, 2]);
    });
  });

  it('retries a failing handler and applies its effect once', async () => {
    const event = payment(randomUUID(), 333);
    script.failuresLeft.set(event.eventId, 2);
    await recordPayment(dataSource, publisher, event);
    await eventually(async () => expect((await effects(dataSource, group)).filter((row) => row.event_id === event.eventId)).toHaveLength(1));
    expect(script.calls.filter((call) => call.eventId === event.eventId).map((call) => call.attempt)).toEqual([1, 2, 3]);
  });

  it('dead-letters a poison message with its reason and goes on with the next one', async () => {
    const rental = randomUUID();
    const poison = payment(rental, 444);
    const next = payment(rental, 555);
    script.poison.add(poison.eventId);
    await recordPayment(dataSource, publisher, poison);
    await recordPayment(dataSource, publisher, next);
    await eventually(async () => expect((await effects(dataSource, group)).map((row) => row.event_id)).toContain(next.eventId));
    const [letter] = await query(dataSource, DEAD_LETTER, [group, poison.eventId]);
    expect(letter).toEqual({ topic: BILLING, reason: expect.stringContaining(`cannot apply payment ${poison.payload.paymentUuid}`), attempts: 3 });
  });

  it('dead-letters a message that breaks its contract without calling the handler', async () => {
    const eventId = randomUUID();
    // Written and announced as a producer that notifies once for any topic does (the safety poll may be 30 s away).
    await dataSource.transaction(async (manager) => {
      await query(manager, INSERT_UNCHECKED_EVENT, [BILLING, eventId, SERVICE, JSON.stringify({ eventId, type: 'payment-recorded', payload: {} })]);
      await query(manager, NOTIFY, [OUTBOX_CHANNEL]);
    });
    await eventually(async () => {
      const [letter] = await query(dataSource, DEAD_LETTER_OF_EVENT, [eventId]);
      expect(letter).toEqual({ reason: expect.stringContaining('Invalid event'), attempts: 0 });
    });
    expect(script.calls.map((call) => call.eventId)).not.toContain(eventId);
  });

  it('replays a day of events with no effect applied twice, marking redeliveries when asked', async () => {
    const rental = randomUUID();
    const day = Array.from({ length: 20 }, (_, i) => payment(rental, 1_000 + i));
    for (const event of day) await recordPayment(dataSource, publisher, event);
    const ids = day.map((event) => event.eventId);
    await eventually(async () => expect((await effects(dataSource, group)).filter((row) => ids.includes(row.event_id))).toHaveLength(20));
    const before = await effects(dataSource, group);

    await consumer.close();
    const pool = new Pool({ connectionString: database.url, max: 1 });
    const lines: string[] = [];
    const from = new Date(Date.now() - 24 * 3_600_000);
    await replayEmbedded(pool, { group, from, to: undefined, redeliver: true }, (line) => lines.push(line));
    await pool.end();
    expect(lines.join('\n')).toMatch(/log position \d+ -> \d+; \d+ event\(s\) to replay/);
    script.calls.length = 0;
    consumer = await startConsumer();

    await eventually(async () => expect(script.calls.filter((call) => ids.includes(call.eventId))).toHaveLength(20));
    expect(script.calls.every((call) => call.redelivered)).toBe(true);
    expect(await effects(dataSource, group)).toEqual(before);
  });

  it('replays a running group through its consumer, which moves its own position (no refusal)', async () => {
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      const lines: string[] = [];
      await replayEmbedded(pool, { group, from: new Date(0), to: undefined, redeliver: false }, (line) => void lines.push(line));
      expect(lines[0]).toMatch(/is running: replay #\d+ requested/);
      expect(lines.at(-1)).toMatch(/applied by the running consumer|nothing to replay/);
    } finally {
      await pool.end();
    }
  });

  it('waits out its database going away with a warning, not an error, and goes on', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const error = jest.spyOn(Logger.prototype, 'error');
    try {
      // What a stopping server does to its sessions (57P01, as on Ctrl-C of `npm start` or a failover).
      await query(dataSource, sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`), [
        `consumer:${group}`,
      ]);
      await eventually(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('consumer stopped, restarting: terminating connection')));
      expect(error).not.toHaveBeenCalledWith(expect.stringContaining('consumer stopped'));
      const rental = randomUUID();
      const after = payment(rental, 333);
      await recordPayment(dataSource, publisher, after);
      await eventually(async () => expect(await effects(dataSource, group)).toContainEqual({ event_id: after.eventId, rental, amount: 333 }));
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
