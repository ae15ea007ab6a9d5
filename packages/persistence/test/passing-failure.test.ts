import { Client } from 'pg';
import { usePrivateServer } from './support/private-server';
import { createDataSource, freePort, passingFailureOf, query, sql } from '../src';

const TERMINATE = sql<{ terminated: boolean }, [string]>('SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1');

/** What `work` fails with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

/** The errors a real server gives when it goes away, classified as the api's filter and the consumers classify them. */
describe('passingFailureOf', () => {
  const { server, admin } = usePrivateServer('storage-passing-');

  it('finds the database unavailable when a client is used after its connection was terminated', async () => {
    const client = new Client({ connectionString: server().url(), application_name: 'terminated-client' });
    // `on`, not `once`: the server's 57P01 and the socket's end can each raise an error, and an unheard one throws.
    const lost = new Promise<Error>((resolve) => client.on('error', resolve));
    await client.connect();
    await query(admin(), TERMINATE, ['terminated-client']);
    expect(passingFailureOf(await lost)).toBe('unavailable');
    const error = await failureOf(() => query(client, sql('SELECT 1')));
    expect(error).toMatchObject({ message: expect.stringContaining('not queryable') });
    expect(passingFailureOf(error)).toBe('unavailable');
    await client.end().catch(() => undefined);
  });

  // The statement in flight fails with 57P01, or, when the connection's error came first, TypeORM has released the
  // transaction's runner: both are the database away.
  it('finds the database unavailable in what TypeORM throws in a transaction whose connection was terminated', async () => {
    const dataSource = createDataSource({ url: server().url(), applicationName: 'terminated-transaction', poolSize: 1 });
    await dataSource.initialize();
    try {
      const error = await failureOf(() =>
        dataSource.transaction(async (manager) => {
          await query(manager, sql('SELECT 1'));
          await query(admin(), TERMINATE, ['terminated-transaction']);
          await query(manager, sql('SELECT 2'));
        }),
      );
      expect(passingFailureOf(error)).toBe('unavailable');
    } finally {
      await dataSource.destroy().catch(() => undefined);
    }
  });

  it('finds the database unavailable when nothing listens on its port', async () => {
    const client = new Client({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/storage` });
    expect(passingFailureOf(await failureOf(() => client.connect()))).toBe('unavailable');
  });

  // A disk full is what a write meets when PostgreSQL cannot extend a table's file: raised here with the server's own code.
  it.each(['disk_full', 'out_of_memory', 'insufficient_resources'])('finds the database exhausted when it reports %s', async (condition) => {
    const error = await failureOf(() => query(admin(), sql(`DO $$ BEGIN RAISE EXCEPTION 'out of room' USING ERRCODE = '${condition}'; END $$`)));
    expect(passingFailureOf(error)).toBe('exhausted');
  });

  // Settings an operator puts on the database or its role (a managed PostgreSQL often has them), and a standby
  // after a failover: the same request passes once the lock is free, the load lighter, or the primary back.
  it('finds the database unavailable when a statement outlives statement_timeout, or the database takes no writes', async () => {
    const timedOut = await failureOf(() => query(admin(), sql("SET statement_timeout = '10ms'; SELECT pg_sleep(1)")));
    await query(admin(), sql('RESET statement_timeout'));
    expect(timedOut).toMatchObject({ code: '57014' });
    expect(passingFailureOf(timedOut)).toBe('unavailable');

    await query(admin(), sql('CREATE TABLE IF NOT EXISTS written (id int)'));
    await query(admin(), sql('SET default_transaction_read_only = on'));
    const readOnly = await failureOf(() => query(admin(), sql('INSERT INTO written VALUES (1)')));
    await query(admin(), sql('RESET default_transaction_read_only'));
    expect(readOnly).toMatchObject({ code: '25006' });
    expect(passingFailureOf(readOnly)).toBe('unavailable');
  });

  /** `work` with a second session beside admin(); the transactions either leaves open end with it. */
  async function besideAdmin(work: (other: Client) => Promise<void>): Promise<void> {
    const other = new Client({ connectionString: server().url() });
    await other.connect();
    try {
      await work(other);
    } finally {
      await query(admin(), sql('ROLLBACK'));
      await other.end();
    }
  }

  it('finds a collision in a lock waited for longer than lock_timeout', async () => {
    await besideAdmin(async (other) => {
      await query(admin(), sql('CREATE TABLE IF NOT EXISTS locked (id int PRIMARY KEY); INSERT INTO locked VALUES (1) ON CONFLICT DO NOTHING'));
      await query(admin(), sql('BEGIN'));
      await query(admin(), sql('UPDATE locked SET id = id WHERE id = 1'));
      const error = await failureOf(() => query(other, sql("SET lock_timeout = '50ms'; UPDATE locked SET id = id WHERE id = 1")));
      expect(error).toMatchObject({ code: '55P03' });
      expect(passingFailureOf(error)).toBe('collision');
    });
  });

  it('finds a collision in a deadlock, and nothing passing in a broken rule', async () => {
    await besideAdmin(async (other) => {
      await query(admin(), sql('CREATE TABLE IF NOT EXISTS pair (id int PRIMARY KEY); INSERT INTO pair VALUES (1), (2) ON CONFLICT DO NOTHING'));
      await query(admin(), sql('BEGIN'));
      await query(other, sql('BEGIN'));
      await query(admin(), sql('UPDATE pair SET id = id WHERE id = 1'));
      await query(other, sql('UPDATE pair SET id = id WHERE id = 2'));
      // Each waits for the row the other holds: PostgreSQL breaks the cycle by failing one of them.
      const outcomes = await Promise.allSettled([
        query(admin(), sql('UPDATE pair SET id = id WHERE id = 2')),
        query(other, sql('UPDATE pair SET id = id WHERE id = 1')),
      ]);
      const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(passingFailureOf(failed?.reason)).toBe('collision');
    });
    expect(passingFailureOf(await failureOf(() => query(admin(), sql('INSERT INTO pair VALUES (1)'))))).toBeUndefined();
  });
});
