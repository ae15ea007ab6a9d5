import path from 'node:path';
import { createDataSource } from './data-source';
import { migrate } from './migrate';

/** Every workspace's compiled entities: files named `*.entity.js` in their dist/. */
export const ENTITY_GLOBS = ['apps/*/dist/**/*.entity.js', 'packages/*/dist/**/*.entity.js'].map((glob) => path.join(__dirname, '..', '..', '..', glob));

/** A statement of the difference (TypeORM's own shape: the generator writes `query`). */
export interface SchemaStatement {
  query: string;
}

export interface SchemaDifference {
  /** The statements that would bring the migrated schema to what the entities describe; none when they agree. */
  up: SchemaStatement[];
  down: SchemaStatement[];
}

/** Migrates the empty database at `url` and compares the schema the migrations made with the entities. */
export async function schemaDifference(url: string): Promise<SchemaDifference> {
  await migrate(url);
  const dataSource = await createDataSource({ url, entities: ENTITY_GLOBS, applicationName: 'codegen' }).initialize();
  try {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return { up: sql.upQueries, down: sql.downQueries };
  } finally {
    await dataSource.destroy();
  }
}
