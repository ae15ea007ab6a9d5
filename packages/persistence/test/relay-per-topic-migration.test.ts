import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
// The compiled package: migrations are found as .js beside its data source.
import { freePort, createDataSource, migrate, query, type RunningEmbeddedPostgres, sql, startEmbeddedPostgres } from '@storage/persistence';

const INSERT_ROWS = sql<never, [source: string, count: number, topic: string]>(
  `INSERT INTO outbox (topic, key, type, event_id, source, envelope)
   SELECT $3, NULL, 'payment-recorded', gen_random_uuid()::text, $1, '{}'::json FROM generate_series(1, $2)`,
);
const BILLING = 'storage.billing.v1';
const LIFECYCLE = 'storage.tenant-lifecycle.v1';
const SAVE_POSITION = sql<never, [group: string, position: number]>(`INSERT INTO consumer_offsets (consumer_group, position) VALUES ($1, $2)`);
const POSITIONS = sql<{ consumer_group: string; position: string }>(`SELECT consumer_group, position::text FROM consumer_offsets ORDER BY consumer_group`);
const LAST_APPLIED = sql<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1');

describe('RelayPerTopic migration: the apps’ relay positions become the topics’', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-relay-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    await migrate(server.url());
    const dataSource = await createDataSource({ url: server.url(), applicationName: 'relay-migration-test' }).initialize();
    while ((await query(dataSource, LAST_APPLIED))[0].name !== 'RelayPerTopic1795330003200') await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.destroy();
  });

  afterEach(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function migrated(setUp: (db: DataSource) => Promise<void>): Promise<{ consumer_group: string; position: string }[]> {
    const dataSource = await createDataSource({ url: server.url(), applicationName: 'relay-migration-test' }).initialize();
    try {
      await setUp(dataSource);
      await migrate(server.url());
      return await query(dataSource, POSITIONS);
    } finally {
      await dataSource.destroy();
    }
  }

  it('starts each topic’s relay where the furthest-behind app’s relay stopped, so no unpublished row is skipped', async () => {
    const positions = await migrated(async (db) => {
      await query(db, INSERT_ROWS, ['api', 10, LIFECYCLE]); // positions 1 to 10
      await query(db, INSERT_ROWS, ['delinquency-scheduler', 10, BILLING]); // 11 to 20
      await query(db, SAVE_POSITION, ['relay:api', 20]);
      await query(db, SAVE_POSITION, ['relay:delinquency-scheduler', 14]);
      await query(db, SAVE_POSITION, ['consumer:dispatcher', 20]);
    });
    expect(positions).toEqual([
      { consumer_group: 'consumer:dispatcher', position: '20' },
      { consumer_group: `relay:${BILLING}`, position: '14' },
      { consumer_group: `relay:${LIFECYCLE}`, position: '14' },
    ]);
  });

  it('starts from the beginning when an app with rows never ran a relay: its rows were never published', async () => {
    expect(
      await migrated(async (db) => {
        await query(db, INSERT_ROWS, ['api', 3, BILLING]);
        await query(db, INSERT_ROWS, ['delinquency-scheduler', 3, BILLING]);
        await query(db, SAVE_POSITION, ['relay:api', 6]);
      }),
    ).toEqual([{ consumer_group: `relay:${BILLING}`, position: '0' }]);
  });

  it('saves nothing when no relay ever ran (embedded transport)', async () => {
    expect(await migrated(async (db) => void (await query(db, INSERT_ROWS, ['api', 3, BILLING])))).toEqual([]);
  });
});
