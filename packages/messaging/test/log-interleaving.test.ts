import { randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import type { DataSource } from 'typeorm';
import { createTestDatabase, describeWithKafka, eventually, type TestDatabase } from '@storage/testing';
import { eventTransport, OutboxPublisher, type OutboxRelay } from '../src';
import { LogReader } from '../src/embedded/log-reader';
import { startGroupAtEnd, testRelay } from './kafka-support';
import { BILLING, effects, newScript, openDataSource, openTransaction, payment, SERVICE, startConsumer, writeState, type Script } from './support';

/*
 * The interleaving that lost events: B takes its transaction id first (a write before its event, as every api
 * operation makes), A writes its event (log position N), B writes its event (N+1) and commits, A commits later.
 * A reader that sees the gap at N must wait for A, whatever the order of the two transaction ids.
 */
interface Interleaving {
  rental: string;
  /** A's event: the lower position, committed last. */
  early: ReturnType<typeof payment>;
  /** B's event: the higher position, committed while A is open. */
  late: ReturnType<typeof payment>;
  commitEarly: () => Promise<void>;
}

async function interleave(dataSource: DataSource, publisher: OutboxPublisher, rental = randomUUID()): Promise<Interleaving> {
  const early = payment(rental, 1);
  const late = payment(rental, 2);
  const b = await openTransaction(dataSource);
  await writeState(b.manager, late);
  const a = await openTransaction(dataSource);
  await writeState(a.manager, early);
  await publisher.publish(a.manager, early);
  await publisher.publish(b.manager, late);
  await b.commit();
  return { rental, early, late, commitEarly: () => a.commit() };
}

/** The events of one rental the group applied, in the order it applied them. */
async function applied(dataSource: DataSource, group: string, rental: string): Promise<string[]> {
  return (await effects(dataSource, group)).filter((row) => row.rental === rental).map((row) => row.event_id);
}

const CLOCK = sql<{ since: Date }, []>('SELECT clock_timestamp() AS since');
const LATEST_OUTBOX_READ = sql<{ at: Date | null }, [applicationName: string, since: Date]>(
  `SELECT max(query_start) AS at FROM pg_stat_activity
          WHERE application_name = $1 AND query LIKE '%FROM outbox o%' AND query_start > $2`,
);
const HEAD = sql<{ start: string }, []>(`SELECT coalesce(max(id), 0)::text AS start FROM outbox`);

/** Waits until the session named `applicationName` has started `count` reads of the outbox after this call. */
async function readsStarted(dataSource: DataSource, applicationName: string, count: number): Promise<void> {
  let [{ since }] = await query(dataSource, CLOCK);
  for (let read = 0; read < count; read++) {
    since = await eventually(
      async () => {
        const [started] = await query(dataSource, LATEST_OUTBOX_READ, [applicationName, since]);
        expect(started.at).not.toBeNull();
        return started.at!;
      },
      { intervalMs: 2 },
    );
  }
}

describe('a transaction that commits after a later log position, its id taken after the later one', () => {
  const publisher = new OutboxPublisher(SERVICE);
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('is read by the log reader in position order once it commits, not passed as a rollback', async () => {
    const pool = new Pool({ connectionString: database.url, max: 2 });
    try {
      const reader = new LogReader(pool, 100);
      const [{ start }] = await query(dataSource, HEAD);
      let after = BigInt(start);
      const read: string[] = [];
      const readOnce = async (): Promise<void> => {
        const { records } = await reader.read(after);
        for (const record of records) read.push(record.eventId);
        after = records.at(-1)?.position ?? after;
      };
      const { early, late, commitEarly } = await interleave(dataSource, publisher);
      // Several reads while A is open: each must hold at the gap.
      try {
        for (let i = 0; i < 5; i++) await readOnce();
      } finally {
        await commitEarly();
      }
      expect(read).toEqual([]);
      await eventually(async () => {
        await readOnce();
        expect(read).toEqual([early.eventId, late.eventId]);
      });
    } finally {
      await pool.end();
    }
  });

  it('is handled by the embedded consumer, in position order', async () => {
    const group = `interleaving-${randomUUID().slice(0, 8)}`;
    const script = newScript();
    const consumer = await startConsumer(dataSource, script, eventTransport({ group, topics: [BILLING], databaseUrl: database.url }));
    try {
      const { rental, early, late, commitEarly } = await interleave(dataSource, publisher);
      await readsStarted(dataSource, `consumer:${group}`, 3);
      await commitEarly();
      await eventually(async () => expect(await applied(dataSource, group, rental)).toEqual([early.eventId, late.eventId]));
    } finally {
      await consumer.close();
    }
  });
});

describeWithKafka('a late commit through the Kafka relay', (brokers) => {
  const publisher = new OutboxPublisher(SERVICE);
  const group = `interleaving-kafka-${randomUUID().slice(0, 8)}`;
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

  it('is relayed and handled once it commits, in position order', async () => {
    const { rental, early, late, commitEarly } = await interleave(dataSource, publisher);
    await readsStarted(dataSource, `relay:${SERVICE}`, 3);
    await commitEarly();
    await eventually(async () => expect(await applied(dataSource, group, rental)).toEqual([early.eventId, late.eventId]), {
      timeoutMs: 30_000,
    });
  }, 60_000);
});
