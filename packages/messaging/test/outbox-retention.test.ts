import { randomUUID } from 'node:crypto';
import { Global, Logger, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { eventTransport, MessagingModule, OutboxPruner, type OutboxPrunerOptions } from '../src';
import { relayName, RETENTION_LOCK, tryAdvisoryXactLock } from '../src/embedded/advisory-lock';
import { PRUNE, PRUNE_START } from '../src/retention/prune-batch';
import { replayEmbedded } from '../src/replay/embedded-replay';
import { EventsPruned } from '../src/replay/replay-request';
import { BEGIN, COMMIT } from '../src/transaction-control';
import { BILLING, effects, newScript, openDataSource, payment, SERVICE, startConsumer } from './support';

const DAY_MS = 86_400_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const INSERT_EVENTS = sql<never, [topic: string, source: string, daysAgo: number, events: string]>(
  `INSERT INTO outbox (topic, key, type, event_id, source, envelope, created_at)
       SELECT $1, e->>'key', e->>'type', e->>'eventId', $2, e, now() - make_interval(days => $3)
         FROM json_array_elements($4::json) WITH ORDINALITY AS t(e, n) ORDER BY n`,
);
const REMAINING = sql<{ event_id: string }, []>('SELECT event_id FROM outbox ORDER BY id');
const POSITION_OF_EVENT = sql<{ id: string }, [eventId: string]>('SELECT id::text FROM outbox WHERE event_id = $1');
const INSERT_OFFSET = sql<never, [group: string, position: string, savedDaysAgo: number]>(
  `INSERT INTO consumer_offsets (consumer_group, position, updated_at) VALUES ($1, $2, now() - make_interval(days => $3))`,
);
const RETENTION_MARK = sql<{ position: string }, []>('SELECT pruned_through_position::text AS position FROM outbox_retention');
/** The relay's saved position, as it saves it once Kafka acknowledged everything up to it. */
const RELAY_PUBLISHED_THROUGH = sql<never, [relay: string, eventId: string]>(
  `INSERT INTO consumer_offsets (consumer_group, position) SELECT $1, id FROM outbox WHERE event_id = $2
   ON CONFLICT (consumer_group) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
);
const INSERT_MINUTELY_EVENTS = sql<never, [topic: string, source: string]>(
  `INSERT INTO outbox (topic, key, type, event_id, source, envelope, created_at)
         SELECT $1, NULL, 'payment-recorded', 'event-' || n, $2, '{}'::json, now() - n * interval '1 minute'
           FROM generate_series(1, 50000) AS n`,
);
const ANALYZE_OUTBOX = sql('ANALYZE outbox');
const PRUNE_PLANS = {
  kafka: sql<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${PRUNE.kafka.text}`),
  embedded: sql<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${PRUNE.embedded.text}`),
};
const OLDER_THAN_RETENTION = sql<{ id: string }, []>(`SELECT id::text FROM outbox WHERE created_at < now() - interval '7 days'`);
const GROUP_POSITIONS = sql<{ consumer_group: string; position: string }, [pattern: string]>(
  'SELECT consumer_group, position::text AS position FROM consumer_offsets WHERE consumer_group LIKE $1 ORDER BY 1',
);
const GROUP_POSITION = sql<{ position: string }, [group: string]>('SELECT position::text FROM consumer_offsets WHERE consumer_group = $1');
const REPLAY_REQUESTS = sql<{ id: string }, []>('SELECT id::text FROM replay_requests');

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe('outbox retention', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let pool: Pool;
  const pruners: OutboxPruner[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    pool = new Pool({ connectionString: database.url, max: 2 });
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(pruners.splice(0).map((pruner) => pruner.stop()));
    await pool.end();
    await dataSource.destroy();
    await database.drop();
  });

  function pruner(options: Partial<OutboxPrunerOptions> = {}): OutboxPruner {
    const created = new OutboxPruner({
      service: SERVICE,
      databaseUrl: database.url,
      retentionDays: 7,
      mode: 'kafka',
      batchSize: 3,
      intervalMs: 60_000,
      ...options,
    });
    pruners.push(created);
    return created;
  }

  /** Valid events committed `daysAgo` days ago, in log order; their event ids. */
  async function addEvents(count: number, daysAgo: number): Promise<string[]> {
    const events = Array.from({ length: count }, () => payment(randomUUID()));
    await query(dataSource, INSERT_EVENTS, [BILLING, SERVICE, daysAgo, JSON.stringify(events)]);
    return events.map((event) => event.eventId);
  }

  /** Kafka mode: the topic's relay has published everything up to this event. */
  async function relayPublishedThrough(eventId: string): Promise<void> {
    await query(dataSource, RELAY_PUBLISHED_THROUGH, [relayName(BILLING), eventId]);
  }

  async function remaining(): Promise<string[]> {
    const rows = await query(dataSource, REMAINING);
    return rows.map((row) => row.event_id);
  }

  async function positionOf(eventId: string): Promise<string> {
    const [row] = await query(dataSource, POSITION_OF_EVENT, [eventId]);
    return row.id;
  }

  async function setOffset(group: string, position: string, savedDaysAgo = 0): Promise<void> {
    await query(dataSource, INSERT_OFFSET, [group, position, savedDaysAgo]);
  }

  describe("Kafka mode: published (at or before its relay's saved position) means delivered", () => {
    it('deletes published events older than the retention in batches, keeping recent and unpublished ones', async () => {
      const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const oldPublished = await addEvents(7, 10);
      const oldUnpublished = await addEvents(2, 10);
      const edgeOfWindow = await addEvents(2, 6);
      const recent = await addEvents(3, 0);
      const lastOldPublished = await positionOf(oldPublished[6]);
      await relayPublishedThrough(oldPublished[6]);

      const summary = await pruner().prune();

      // 9 rows older than 7 days, looked at 3 per statement: three full batches and an empty one.
      expect(summary).toMatchObject({ deleted: 7, kept: 2, batches: 4, yielded: false });
      expect(await remaining()).toEqual([...oldUnpublished, ...edgeOfWindow, ...recent]);
      expect(log).toHaveBeenCalledWith(
        expect.stringMatching(/^pruned 7 event\(s\) committed before .+ in 4 batch\(es\); 2 older event\(s\) kept, not delivered yet$/),
      );
      const [mark] = await query(dataSource, RETENTION_MARK);
      expect(mark.position).toBe(lastOldPublished);

      // Published later: the next pass takes them.
      await relayPublishedThrough(recent[2]);
      expect(await pruner().prune()).toMatchObject({ deleted: 2, kept: 0 });
      expect(await remaining()).toEqual([...edgeOfWindow, ...recent]);
    });

    it('walks the created_at index and deletes by primary key, never scanning the table', async () => {
      await query(dataSource, INSERT_MINUTELY_EVENTS, [BILLING, SERVICE]);
      await query(dataSource, ANALYZE_OUTBOX);
      for (const mode of ['kafka', 'embedded'] as const) {
        const [{ 'QUERY PLAN': plan }] = await query(dataSource, PRUNE_PLANS[mode], [
          new Date(Date.now() - 7 * DAY_MS).toISOString(),
          PRUNE_START.time,
          PRUNE_START.id,
          5_000,
        ]);
        const outboxScans = planNodes(plan[0].Plan).filter((node) => node['Relation Name'] === 'outbox');
        expect(outboxScans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
        expect(outboxScans.map((node) => node['Index Name'])).toEqual(expect.arrayContaining(['outbox_created_at', expect.stringMatching(/^PK_/)]));
      }
    });

    it('lets replicas prune at the same time without harm, and yields to the one holding the lock', async () => {
      const old = await addEvents(40, 10);
      const recent = await addEvents(2, 1);
      await relayPublishedThrough(recent[1]);

      const client = await pool.connect();
      try {
        await query(client, BEGIN);
        expect(await tryAdvisoryXactLock(client, RETENTION_LOCK)).toBe(true);
        // Another replica is in the middle of a batch: this one leaves the work to it.
        expect(await pruner().prune()).toMatchObject({ deleted: 0, yielded: true });
        await query(client, COMMIT);
      } finally {
        client.release();
      }
      expect(await remaining()).toHaveLength(old.length + recent.length);

      const passes = await Promise.all([pruner({ batchSize: 2 }).prune(), pruner({ batchSize: 2 }).prune(), pruner({ batchSize: 5 }).prune()]);
      const deletedByAll = passes.reduce((sum, pass) => sum + pass.deleted, 0);
      const stillOld = await query(dataSource, OLDER_THAN_RETENTION);
      // Whatever a yielding pass left is taken by the next one.
      expect(deletedByAll + (await pruner().prune()).deleted).toBe(old.length);
      expect(stillOld.length).toBe(old.length - deletedByAll);
      expect(await remaining()).toEqual(recent);
    });
  });

  describe('embedded mode: read by every active consumer group means delivered', () => {
    it('keeps what an active group has not read, even past the retention; a group stopped longer than the retention holds nothing back', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn');
      const old = await addEvents(8, 10);
      const recent = await addEvents(2, 0);
      const [goneFrom, prunedThrough] = [await positionOf(old[1]), await positionOf(old[3])];
      await setOffset('active-group', prunedThrough);
      await setOffset('gone-group', goneFrom, 9);
      await setOffset('relay:another-service', '0');

      expect(await pruner({ mode: 'embedded' }).prune()).toMatchObject({ deleted: 4, kept: 4 });
      expect(await remaining()).toEqual([...old.slice(4), ...recent]);

      const consumers: INestMicroservice[] = [];
      try {
        for (const group of ['active-group', 'gone-group']) {
          consumers.push(
            await startConsumer(dataSource, newScript(), eventTransport({ group, topics: [BILLING], databaseUrl: database.url, pollIntervalMs: 50 })),
          );
        }
        // The active group gets every event after its position; the one that was gone resumes past the pruned gap.
        // (Each event has its own key, so lanes may apply them in any order.)
        const expected = [...old.slice(4), ...recent].sort();
        const handledBy = async (group: string) => (await effects(dataSource, group)).map((row) => row.event_id).sort();
        await eventually(async () => expect(await handledBy('active-group')).toEqual(expected));
        await eventually(async () => expect(await handledBy('gone-group')).toEqual(expected));
        expect(warn).toHaveBeenCalledWith(
          `events after position ${goneFrom} up to ${prunedThrough} may have been deleted by outbox retention before this group read them`,
        );
        expect(warn).not.toHaveBeenCalledWith(expect.stringContaining(`after position ${prunedThrough} `));
        const last = await positionOf(recent[1]);
        await eventually(async () =>
          expect(await query(dataSource, GROUP_POSITIONS, ['%-group'])).toEqual([
            { consumer_group: 'active-group', position: last },
            { consumer_group: 'gone-group', position: last },
          ]),
        );
      } finally {
        for (const consumer of consumers) await consumer.close();
      }

      // Read now by every active group: the rest of the old events go.
      expect(await pruner({ mode: 'embedded' }).prune()).toMatchObject({ deleted: 4, kept: 0 });
      expect(await remaining()).toEqual(recent);
    });

    it('refuses a replay from before what retention deleted, naming the earliest time that works, and changes nothing', async () => {
      await addEvents(5, 10);
      const recent = await addEvents(3, 1);
      const head = await positionOf(recent[2]);
      await setOffset('replayed-group', head);
      expect(await pruner({ mode: 'embedded' }).prune()).toMatchObject({ deleted: 5 });

      const lines: string[] = [];
      const tooEarly = { group: 'replayed-group', from: new Date(Date.now() - 30 * DAY_MS), to: undefined, redeliver: false };
      const refusal = await replayEmbedded(pool, tooEarly, (line) => lines.push(line)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(EventsPruned);
      const { message } = refusal as EventsPruned;
      const earliest = /replay --from (\S+) or later/.exec(message)?.[1];
      expect(message).toMatch(/^events committed before \S+ were deleted by outbox retention \(OUTBOX_RETENTION_DAYS\)/);
      expect(await query(dataSource, GROUP_POSITION, ['replayed-group'])).toEqual([{ position: head }]);
      expect(await query(dataSource, REPLAY_REQUESTS)).toEqual([]);

      await replayEmbedded(pool, { ...tooEarly, from: new Date(earliest!) }, (line) => lines.push(line));
      expect(lines.join('\n')).toMatch(/log position \d+ -> \d+; 3 event\(s\) to replay/);
    });
  });

  describe('running inside the service', () => {
    @Global()
    @Module({ providers: [{ provide: DataSource, useFactory: () => dataSource }], exports: [DataSource] })
    class TestDatabaseModule {}

    function boot(outboxRetentionDays: number, relay = true): Promise<INestApplicationContext> {
      @Module({ imports: [TestDatabaseModule, MessagingModule.forRoot({ service: SERVICE, partitions: 3, relay, outboxRetentionDays, consumes: false })] })
      class ServiceModule {}
      return NestFactory.createApplicationContext(ServiceModule, { logger: false, abortOnError: false });
    }

    it('prunes from the start of the service that owns the outbox, and stops with it', async () => {
      await addEvents(4, 8);
      const recent = await addEvents(1, 0);
      const app = await boot(7);
      try {
        await eventually(async () => expect(await remaining()).toEqual(recent));
      } finally {
        await app.close();
      }
    });

    it('runs no pruner when retention is 0 (forever) or the service does not own the outbox', async () => {
      for (const [days, relay] of [
        [0, true],
        [7, false],
      ] as const) {
        const app = await boot(days, relay);
        try {
          expect(() => app.get(OutboxPruner)).toThrow();
        } finally {
          await app.close();
        }
      }
    });

    it('refuses bad settings with a clear error', async () => {
      await expect(boot(-1)).rejects.toThrow('retentionDays must be a whole number of days, at least 1 (retention off is no pruner), got -1');
      expect(() => pruner({ retentionDays: 1.5 })).toThrow('got 1.5');
      expect(() => pruner({ retentionDays: Number.NaN })).toThrow('got NaN');
      expect(() => pruner({ batchSize: 0 })).toThrow('batchSize must be a whole number, at least 1, got 0');
      expect(() => pruner({ intervalMs: 0 })).toThrow('intervalMs must be a positive number, got 0');
    });
  });
});
