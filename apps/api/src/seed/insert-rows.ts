import { SnakeNamingStrategy } from '@storage/persistence';
import type { EntityManager } from 'typeorm';

type Row = Record<string, unknown>;

// PostgreSQL takes at most 65,535 parameters per statement.
const MAX_PARAMETERS = 60_000;

// The entities' own naming, so a row's keys are the entity's property names.
const naming = new SnakeNamingStrategy();
const snake = (name: string): string => naming.columnName(name, undefined, []);

/**
 * Multi-row INSERTs, as few statements as the parameter limit allows. Keys are the entities' property
 * names; a key some rows lack takes the column's default in them. Plain objects go to jsonb as JSON;
 * arrays go to PostgreSQL arrays, so a jsonb array must be given as its JSON text.
 */
export async function insertRows(db: EntityManager, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const placeholders = columns.map((column) => {
        if (!(column in row)) return 'DEFAULT';
        const value = row[column];
        values.push(value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) ? JSON.stringify(value) : value);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await db.query(`INSERT INTO ${table} (${columns.map(snake).join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }
}
