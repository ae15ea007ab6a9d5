import type { EntityManager } from 'typeorm';

/** Rows of an UPDATE … RETURNING: TypeORM's postgres driver answers UPDATE and DELETE with [rows, rowCount]. */
export async function updateReturning<T>(db: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const [rows] = await db.query<[T[], number]>(sql, parameters);
  return rows;
}
