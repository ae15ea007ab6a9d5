import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
// The compiled package, as services run it: migrations are built into dist/migrations.
import { freePort, migrate, query, type RunningEmbeddedPostgres, sql, startEmbeddedPostgres } from '@storage/persistence';

const SOURCES = path.resolve(__dirname, '../src/migrations');
const BUILT = path.resolve(__dirname, '../dist/migrations');

/**
 * A built migration whose source is gone, as a deleted migration or a branch switched away from leaves in dist
 * (tsc never removes an output, turbo's cache restores over what is there).
 */
const STRAY = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StrayMigration1999999999999 = void 0;
class StrayMigration1999999999999 {
  name = 'StrayMigration1999999999999';
  async up(queryRunner) { await queryRunner.query('CREATE TABLE "stray_migration_marker" ("id" integer)'); }
  async down(queryRunner) { await queryRunner.query('DROP TABLE "stray_migration_marker"'); }
}
exports.StrayMigration1999999999999 = StrayMigration1999999999999;
`;
const STRAY_FILE = path.join(BUILT, '1999999999999-StrayMigration.js');
const APPLIED = sql<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id');
const STRAY_TABLE = sql<{ table: string | null }>(`SELECT to_regclass('stray_migration_marker')::text AS table`);

describe('the migrations a database gets', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let db: Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-migration-list-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    await writeFile(STRAY_FILE, STRAY);
    try {
      await migrate(server.url());
    } finally {
      await rm(STRAY_FILE, { force: true });
    }
    db = new Client({ connectionString: server.url() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('are those with a source, in order, and nothing a stray built file holds', async () => {
    const sources = (await readdir(SOURCES)).filter((file) => /^\d+-\w+\.ts$/.test(file)).sort();
    const expected = sources.map((file) => {
      const [, timestamp, name] = /^(\d+)-(\w+)\.ts$/.exec(file)!;
      return `${name}${timestamp}`;
    });
    const applied = (await query(db, APPLIED)).map((row) => row.name);
    expect(applied).toEqual(expected);
    const [marker] = await query(db, STRAY_TABLE);
    expect(marker?.table).toBeNull();
  });
});
