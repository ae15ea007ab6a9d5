import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
// The compiled package: migrations are found as .js beside its data source.
import { createDataSource, freePort, migrate, query, type RunningEmbeddedPostgres, sql, startEmbeddedPostgres } from '@storage/persistence';

const MIGRATION = 'LeaseSigningTokenHashes1795330003500';
const APPLIED = sql<{ name: string }>('SELECT name FROM schema_migrations');
const LAST_APPLIED = sql<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1');
const COLUMNS = sql<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'leases' AND column_name LIKE 'signing%'`);
const TOKENS = ['uD8TKz5AhGV9ddXvYyXcLSmbPvCTiLyH0cGSEgoz4Wg', 'demo-signed-lease-4'];

describe('LeaseSigningTokenHashes migration: a lease keeps the SHA-256 of its signing token, not the token', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let db: DataSource;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-lease-tokens-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    await migrate(server.url());
    db = await createDataSource({ url: server.url(), applicationName: 'lease-token-migration-test' }).initialize();
    expect((await query(db, APPLIED)).map((row) => row.name)).toContain(MIGRATION);
    await undoThroughMigration();
  });

  /** Undoes the migrations applied after this one, then this one. */
  const undoThroughMigration = async () => {
    while ((await query(db, LAST_APPLIED))[0].name !== MIGRATION) await db.undoLastMigration({ transaction: 'each' });
    await db.undoLastMigration({ transaction: 'each' });
  };

  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('hashes the stored tokens in place, so the links already sent still open their leases, and drops the clear column', async () => {
    await db.transaction(async (manager) => {
      // The leases alone: their leads, facilities and groups are not what this migration reads.
      await query(manager, sql('SET LOCAL session_replication_role = replica'));
      await query(
        manager,
        sql(`INSERT INTO leases (lead_uuid, facility_uuid, unit_group_uuid, rent_in_pennies, signing_token, sent_at)
             SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 10000, token, now() FROM unnest($1::text[]) AS token`),
        [TOKENS],
      );
    });
    await migrate(server.url());

    expect((await query(db, COLUMNS)).map((row) => row.column_name)).toEqual(['signing_token_hash']);
    const stored = await query(db, sql<{ hash: string }>('SELECT signing_token_hash AS hash FROM leases ORDER BY hash'));
    expect(stored.map((row) => row.hash)).toEqual(TOKENS.map((token) => createHash('sha256').update(token).digest('hex')).sort());
  });

  it('down gives each lease a new random token: the old ones are gone for good, and a lease sent again carries the new one', async () => {
    await undoThroughMigration();
    expect((await query(db, COLUMNS)).map((row) => row.column_name)).toEqual(['signing_token']);
    const tokens = (await query(db, sql<{ token: string }>('SELECT signing_token AS token FROM leases'))).map((row) => row.token);
    expect(tokens).toHaveLength(2);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens).not.toContain(TOKENS[0]);
    await migrate(server.url());
  });
});
