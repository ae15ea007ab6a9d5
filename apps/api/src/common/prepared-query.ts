import { DataSource, type EntityManager } from 'typeorm';

/** A query run as a named prepared statement; names are unique per SQL text (pg refuses a name reused for other SQL). */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

interface PgQueryable {
  query<Row>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * Runs a hot path's statement as a named prepared statement: PostgreSQL parses and plans it once per connection
 * instead of on every call (operation 7's planning costs as much as its execution, and so does a lifecycle event's
 * context). Given the DataSource, it runs on its pg pool, outside any transaction; given a transaction's
 * EntityManager, on that transaction's connection. It bypasses TypeORM's query wrapper, so an UPDATE … RETURNING
 * answers its rows, as a SELECT does. Falls back to TypeORM's `query` for a driver without pg connections.
 */
export async function queryPrepared<Row>(runner: DataSource | EntityManager, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const pg = await pgConnection(runner);
  if (pg === undefined) return runner.query<Row[]>(statement.text, values);
  const result = await pg.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

async function pgConnection(runner: DataSource | EntityManager): Promise<PgQueryable | undefined> {
  // A transaction's PostgresQueryRunner resolves connect() to its pg client; the DataSource's driver holds the pool.
  const queryRunner = runner instanceof DataSource ? undefined : runner.queryRunner;
  const dataSource = runner instanceof DataSource ? runner : runner.connection;
  const connection: unknown = queryRunner !== undefined ? await queryRunner.connect() : (dataSource.driver as unknown as { master?: unknown }).master;
  return isPg(connection) ? connection : undefined;
}

const isPg = (candidate: unknown): candidate is PgQueryable => typeof (candidate as { query?: unknown } | undefined)?.query === 'function';
