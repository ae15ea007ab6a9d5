import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { relayName } from '../src/embedded/advisory-lock';
import { BILLING, SERVICE } from './support';

const PRUNER = 'connection-loss';

/** An event two days old, and its service's relay's position saved past it: published. */
const INSERT_OLD_PUBLISHED_EVENT = sql<never, [topic: string, source: string, relay: string]>(
  `WITH event AS (
     INSERT INTO outbox (topic, key, type, event_id, source, envelope, created_at)
     VALUES ($1, NULL, 'payment-recorded', 'old-event', $2, '{}'::json, now() - interval '2 days') RETURNING id)
   INSERT INTO consumer_offsets (consumer_group, position) SELECT $3, id FROM event`,
);
const BEGIN = sql('BEGIN');
const LOCK_RETENTION_MARK = sql('LOCK TABLE outbox_retention IN ACCESS EXCLUSIVE MODE');
const COMMIT = sql('COMMIT');
const PRUNER_SESSIONS = sql<{ state: string; wait: string | null; query: string }, [applicationName: string]>(
  `SELECT state, wait_event_type AS wait, left(query, 80) AS query FROM pg_stat_activity WHERE application_name = $1`,
);
const TERMINATE_OTHER_SESSIONS = sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
const OLD_EVENTS_LEFT = sql<{ left: number }, []>(`SELECT count(*)::int AS left FROM outbox WHERE event_id = 'old-event'`);

/**
 * The package's database users in a process of their own (the built package): the outbox pruner, an embedded
 * consumer (its LISTEN session) and a TypeORM session held open, as a facility lock holds one.
 */
const SERVICES_PROCESS = `
const { eventTransport, OutboxPruner } = require(${JSON.stringify(path.join(__dirname, '..', 'dist'))});
const { createDataSource, query, sql } = require('@storage/persistence');
const url = process.env.DATABASE_URL;
new OutboxPruner({ service: '${PRUNER}', databaseUrl: url, retentionDays: 1, mode: 'kafka', batchSize: 100, intervalMs: 200 }).start();
eventTransport({ group: 'connection-loss', topics: ['${BILLING}'], databaseUrl: url }).listen(() => undefined);
(async () => {
  const dataSource = await createDataSource({ url, applicationName: 'connection-loss-typeorm' }).initialize();
  const session = dataSource.createQueryRunner();
  await session.connect();
  await query(session, sql('SELECT pg_advisory_lock(1)'));
  process.stdout.write('ready\\n');
})();
`;

describe('PostgreSQL terminating every connection', () => {
  let database: TestDatabase;
  let child: ChildProcess | undefined;
  let admin: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new Client({ connectionString: database.url });
    admin.on('error', () => undefined);
    await admin.connect();
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await admin?.end();
    await database?.drop();
  });

  it('leaves the process alive, and it goes on working once the database answers again', async () => {
    // An event published two days ago: the pruner deletes it, on a connection it holds for the whole pass.
    await query(admin, INSERT_OLD_PUBLISHED_EVENT, [BILLING, SERVICE, relayName(BILLING)]);
    // Holds the pruner's statement, so its connection is checked out, mid-query, when it is terminated.
    await query(admin, BEGIN);
    await query(admin, LOCK_RETENTION_MARK);

    let output = '';
    child = spawn(process.execPath, ['-e', SERVICES_PROCESS], { env: { ...process.env, DATABASE_URL: database.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const alive = (): void => {
      if (child!.exitCode !== null || child!.signalCode !== null) throw new Error(`the process died:\n${output}`);
    };
    await eventually(
      async () => {
        alive();
        expect(output).toContain('ready');
        // The pruner's session as PostgreSQL sees it, and the process's output: what a failure shows.
        const rows = await query(admin, PRUNER_SESSIONS, [`outbox-retention:${PRUNER}`]);
        expect({ sessions: rows, output }).toEqual({ sessions: [expect.objectContaining({ wait: 'Lock' })], output });
      },
      // The process's start (loading the built package, its first connections) is in it: slow when CI loads both cores.
      { timeoutMs: 90_000, intervalMs: 100 },
    );

    await query(admin, TERMINATE_OTHER_SESSIONS);
    await query(admin, COMMIT);

    // The pruner's next pass reconnects and deletes the event; a process that died would never do it.
    await eventually(
      async () => {
        alive();
        const [{ left }] = await query(admin, OLD_EVENTS_LEFT);
        expect(left).toBe(0);
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    alive();
    expect(output).not.toContain("Unhandled 'error' event");
  }, 150_000);
});
