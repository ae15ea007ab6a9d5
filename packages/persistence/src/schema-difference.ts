import path from 'node:path';
import { createDataSource, MIGRATIONS_TABLE } from './data-source';
import { migrate } from './migrate';
import { query } from './query';
import { sql } from './sql';

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
  /**
   * The tables the migrations made that no entity describes, by name: the generator does not see them (it adds and
   * alters, never drops), so an entity left out of ENTITY_GLOBS (a file not named `*.entity.ts`, a workspace outside
   * apps/ and packages/) would go unchecked without this list.
   */
  withoutEntity: string[];
}

/** TypeORM's own tables: its record of migrations run, and of generated columns' expressions. */
const TYPEORM_TABLES = new Set([MIGRATIONS_TABLE, 'typeorm_metadata']);

const TABLES = sql<{ name: string }, []>(
  `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
);

/** Migrates the empty database at `url` and compares the schema the migrations made with the entities. */
export async function schemaDifference(url: string): Promise<SchemaDifference> {
  await migrate(url);
  const dataSource = await createDataSource({ url, entities: ENTITY_GLOBS, applicationName: 'codegen' }).initialize();
  try {
    const difference = await dataSource.driver.createSchemaBuilder().log();
    const described = new Set(dataSource.entityMetadatas.map((entity) => entity.tableName));
    const tables = await query(dataSource, TABLES);
    const withoutEntity = tables.map(({ name }) => name).filter((name) => !TYPEORM_TABLES.has(name) && !described.has(name));
    return { up: difference.upQueries, down: difference.downQueries, withoutEntity };
  } finally {
    await dataSource.destroy();
  }
}
