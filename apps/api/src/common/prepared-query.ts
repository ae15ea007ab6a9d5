import type { DataSource } from 'typeorm';

/** A read query run as a named prepared statement; names are unique per SQL text (pg refuses a name reused for other SQL). */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

interface PgPool {
  query<Row>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * Runs a hot read path's query as a named prepared statement on the DataSource's own pg pool: PostgreSQL
 * parses and plans it once per connection instead of on every call (operation 7's planning costs as much as
 * its execution). It bypasses TypeORM's query runner, so it is for single read-only statements outside any
 * transaction. Falls back to `dataSource.query` for a driver without a pg pool.
 */
export async function queryPrepared<Row>(dataSource: DataSource, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (pool === undefined) return dataSource.query<Row[]>(statement.text, values);
  const result = await pool.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
