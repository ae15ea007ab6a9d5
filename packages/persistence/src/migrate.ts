import type { Logger } from 'typeorm';
import { createDataSource } from './data-source';

/**
 * Applies every pending migration in order, each in its own transaction. Returns their names.
 * `log` gets a line per migration applied and what a migration reports of its own (ForeignKeys: orphans found);
 * without it, a migration's warnings still reach stderr, as they call for someone's attention.
 */
export async function migrate(url: string, log?: (line: string) => void): Promise<string[]> {
  const say = log ?? (() => undefined);
  const warn = log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const logger: Logger = {
    logQuery: () => undefined,
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    // 'info' is TypeORM's own chatter; migrations report with 'log' and 'warn'.
    log: (level, message: unknown) => (level === 'warn' ? warn : level === 'log' ? say : () => undefined)(String(message)),
  };
  const dataSource = createDataSource({ url, applicationName: 'migrate', logger });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) say(`applied ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
