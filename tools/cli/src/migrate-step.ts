import { migrate } from '@storage/persistence';

/**
 * The migrate step, the one way the schema changes: the `db migrate` command (docker compose's `migrate` service and
 * deploy/'s Job run it) and npm start's first step. Nothing else migrates; commands that need the schema refuse a
 * database without it.
 */
export async function applyMigrations(databaseUrl: string, say: (line: string) => void): Promise<void> {
  say('applying migrations');
  const applied = await migrate(databaseUrl, (line) => say(`  ${line}`));
  say(applied.length ? `${applied.length} migration(s) applied` : 'database is up to date');
}
