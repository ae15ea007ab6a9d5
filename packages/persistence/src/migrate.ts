import { createDataSource } from './data-source';

/** Applies every pending migration in order, each in its own transaction. Returns their names. */
export async function migrate(url: string, log: (line: string) => void = () => undefined): Promise<string[]> {
  const dataSource = createDataSource({ url, applicationName: 'migrate' });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`applied ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
