import type { DataSource } from 'typeorm';

interface PgPool {
  query<Row>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * Runs a hot statement as a named prepared statement on the DataSource's pg pool, outside any transaction:
 * PostgreSQL parses and plans it once per connection instead of on every call (the fan-out's planning costs
 * about as much as its execution). `name` must be unique per SQL text.
 */
export async function queryPrepared<Row>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (typeof pool?.query !== 'function') return dataSource.query<Row[]>(text, values);
  return (await pool.query<Row>({ name, text, values })).rows;
}
