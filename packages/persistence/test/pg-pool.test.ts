import { usePrivateServer } from './support/private-server';
import { createPool, dataSourceOptions, query, sql } from '../src';

const BACKENDS_OF = sql<{ backends: number }, [string]>(
  'SELECT count(*)::int AS backends FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
);

describe('createPool', () => {
  const { server, admin } = usePrivateServer('storage-pool-');

  it('ends once every connection is closed, so the server can stop right after without a connection reported lost', async () => {
    // Each round: a pool with all its connections idle, ended, and the server asked at once what is still connected.
    for (let round = 0; round < 20; round++) {
      const name = `pool-end-${round}`;
      const lost: Error[] = [];
      const pool = createPool({ connectionString: server().url(), max: 4, application_name: name }, (error) => lost.push(error));
      const clients = await Promise.all([1, 2, 3, 4].map(() => pool.connect()));
      for (const client of clients) client.release();
      await pool.end();
      expect(await query(admin(), BACKENDS_OF, [name])).toEqual([{ backends: 0 }]);
      expect(lost).toEqual([]);
    }
  });

  it("keeps idle connections through the gaps between an idle system's polls (30 s), pg's own pools and TypeORM's alike", async () => {
    const pool = createPool({ connectionString: server().url(), max: 1 }, () => undefined);
    try {
      expect(pool.options.idleTimeoutMillis).toBeGreaterThan(30_000);
    } finally {
      await pool.end();
    }
    const extra = dataSourceOptions({ url: server().url(), applicationName: 'idle-timeout' }).extra as { idleTimeoutMillis?: number };
    expect(extra.idleTimeoutMillis).toBeGreaterThan(30_000);
  });
});
