import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { locateDatabase, query, sql, startEmbeddedPostgres } from '../src';

async function queryAt<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await query(client, sql<T>(text));
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-embedded-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its data across a stop and a start', async () => {
    const first = await startEmbeddedPostgres({ dataDir, port: 54390 });
    await queryAt(first.url(), "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    try {
      const rows = await queryAt<{ note: string }>(second.url(), 'SELECT note FROM kept');
      expect(rows).toEqual([{ note: 'still here' }]);
    } finally {
      await second.stop();
    }
  });

  it('is found and reused by a second process rather than started twice', async () => {
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      const located = await locateDatabase({ dataDir });
      expect(located.url).toEqual(server.url());
      await located.release();
      const rows = await queryAt<{ ok: number }>(located.url, 'SELECT 1 AS ok');
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await server.stop();
    }
  });

  it('uses DATABASE_URL when it is given, starting nothing', async () => {
    const located = await locateDatabase({ databaseUrl: 'postgres://elsewhere:5432/db', dataDir: '/nonexistent' });
    expect(located).toMatchObject({ url: 'postgres://elsewhere:5432/db', embedded: false });
  });
});
