import { Client } from 'pg';
import { query, sql } from '@storage/persistence';

/**
 * Every table of a database as its row count and a digest of its rows: equal snapshots, nothing changed; the counts
 * show what a command wrote.
 */
export async function databaseSnapshot(url: string): Promise<Record<string, string>> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const tables = await query(
      client,
      sql<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
      ),
    );
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const [{ digest }] = await query(
        client,
        sql<{ digest: string }>(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`),
      );
      digests[name] = digest;
    }
    return digests;
  } finally {
    await client.end();
  }
}
