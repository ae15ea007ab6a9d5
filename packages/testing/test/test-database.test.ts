import { Client } from 'pg';
import { createTestDatabase, eventually } from '../src';
import { query, sql } from '@storage/persistence';

describe('test databases', () => {
  it('gives each caller its own migrated database', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    try {
      expect(first.url).not.toEqual(second.url);
      const client = new Client({ connectionString: first.url });
      await client.connect();
      const migrations = await query(client, sql<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t"));
      await query(client, sql('CREATE TABLE only_here (id int)'));
      await client.end();
      expect(migrations[0].t).toBe('schema_migrations');
      const other = new Client({ connectionString: second.url });
      await other.connect();
      const seen = await query(other, sql<{ t: string | null }>("SELECT to_regclass('only_here') AS t"));
      await other.end();
      expect(seen[0].t).toBeNull();
    } finally {
      await first.drop();
      await second.drop();
    }
  });
});

describe('eventually', () => {
  it('retries until the assertion passes', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
        return calls;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('rethrows the last failure when time runs out', async () => {
    await expect(
      eventually(
        () => {
          throw new Error('never');
        },
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow('never');
  });
});
