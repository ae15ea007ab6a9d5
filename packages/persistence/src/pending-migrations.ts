import type { DataSource } from 'typeorm';
import { createDataSource, MIGRATIONS_TABLE } from './data-source';
import { query } from './query';
import { sql } from './sql';

/** The migrate step, as an operator runs it: `npm run cli -- db migrate` (in an image, `node tools/cli/dist/main.js db migrate`). */
export const MIGRATE_COMMAND = 'npm run cli -- db migrate';

/** Names of the migrations this build carries that the database has not applied (all of them before the first). Read-only. */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const expected = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const [{ present }] = await query(dataSource, sql<{ present: boolean }, [string]>('SELECT to_regclass($1) IS NOT NULL AS present'), [MIGRATIONS_TABLE]);
  const applied = present
    ? new Set((await query(dataSource, sql<{ name: string }>(`SELECT name FROM "${MIGRATIONS_TABLE}"`))).map((row) => row.name))
    : new Set<string>();
  return expected.filter((name) => !applied.has(name));
}

/** `pendingMigrations` of the database at `url`, read through a connection of its own, closed after. */
export async function pendingMigrationsAt(url: string, applicationName: string): Promise<string[]> {
  const dataSource = createDataSource({ url, applicationName, poolSize: 1 });
  await dataSource.initialize();
  try {
    return await pendingMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** A command that needs the schema, on a database without it (or with an older one). */
export class DatabaseNotMigrated extends Error {
  constructor(readonly pending: readonly string[]) {
    super(`database not migrated (${pending.length} migration(s) pending, the first ${pending[0]}): run ${MIGRATE_COMMAND}`);
  }
}

/** Refuses to go on unless every migration is applied: migrating is its own step, never a side effect of a command. */
export async function assertMigrated(dataSource: DataSource): Promise<void> {
  const pending = await pendingMigrations(dataSource);
  if (pending.length > 0) throw new DatabaseNotMigrated(pending);
}
