import type { ClientBase, Pool, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError, type QueryRunner } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Sql } from './sql';

/**
 * Where a statement runs: the DataSource (its pool, outside any transaction), a transaction's EntityManager or
 * QueryRunner (that transaction's connection), or a pg client or pool.
 */
export type Queryable = DataSource | EntityManager | QueryRunner | ClientBase | Pool;

/**
 * Runs a statement with bound values and answers its rows, an UPDATE's or DELETE's RETURNING rows included (TypeORM's
 * `query` answers those as `[rows, count]`). A named statement is prepared once per connection by pg. Errors are
 * TypeORM's `QueryFailedError` carrying pg's error as `driverError`, as from `EntityManager.query`.
 */
export async function query<Row, Values extends readonly unknown[]>(db: Queryable, statement: Sql<Row, Values>, values?: Values): Promise<Row[]> {
  const connection = await pgConnection(db);
  let result: QueryResult;
  try {
    result = await connection.query({ name: statement.name, text: statement.text, values: values as unknown[] | undefined });
  } catch (error) {
    throw new QueryFailedError(statement.text, values as unknown[] | undefined, error as Error);
  }
  return result.rows as Row[];
}

/** The pg client or pool beneath `db`; TypeORM's postgres query runner connects to, and answers, its pg client. */
export async function pgConnection(db: Queryable): Promise<ClientBase | Pool> {
  if (db instanceof DataSource) return poolOf(db);
  if (db instanceof EntityManager) return db.queryRunner === undefined ? poolOf(db.connection) : pgConnection(db.queryRunner);
  if (isQueryRunner(db)) return (await db.connect()) as ClientBase;
  return db;
}

const isQueryRunner = (db: QueryRunner | ClientBase | Pool): db is QueryRunner => 'manager' in db;

function poolOf(dataSource: DataSource): Pool {
  const { driver } = dataSource;
  if (!(driver instanceof PostgresDriver)) throw new Error(`Not a PostgreSQL data source: ${dataSource.options.type}`);
  return driver.master as Pool;
}
