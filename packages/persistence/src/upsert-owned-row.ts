import { SnakeNamingStrategy } from './naming-strategy';
import { query, type Queryable } from './query';
import { sql } from './sql';

const naming = new SnakeNamingStrategy();
const snake = (name: string): string => naming.columnName(name, undefined, []);

/** What an upsert did; `taken` when the uuid is a row of another owner, which is never overwritten. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged' | 'taken';

export interface OwnedRow {
  table: string;
  /** The caller's uuid: a retry of the same write finds the row it created. */
  uuid: string;
  /** The owner's column (entity property name) and value, such as the facility of a unit. */
  owner: [property: string, value: string];
  /** The row's other columns by entity property name; plain objects are stored as JSON. */
  values: Record<string, unknown>;
  /** Columns only a new row is given (derived ones another writer keeps, such as current rates). */
  insertOnly?: Record<string, unknown>;
}

/**
 * Creates the row or brings it to `values`, in one statement (concurrent retries cannot both insert), and says
 * which: the row is only written when a value differs, so a retry changes nothing, not even the row version.
 * The table and column names come from the caller's code, never from input; values are bound parameters.
 */
export async function upsertOwnedRow(db: Queryable, row: OwnedRow): Promise<UpsertOutcome> {
  const [ownerProperty, ownerValue] = row.owner;
  const owner = snake(ownerProperty);
  const columns = Object.keys(row.values).map(snake);
  const insertOnly = row.insertOnly ?? {};
  const inserted = [...columns, ...Object.keys(insertOnly).map(snake)];
  const params = [row.uuid, ownerValue, ...[...Object.values(row.values), ...Object.values(insertOnly)].map(toParameter)];
  const placeholders = params.map((_, index) => `$${index + 1}`).join(', ');
  const compared = columns.map((column) => `t.${column}`).join(', ');
  const excluded = columns.map((column) => `EXCLUDED.${column}`).join(', ');
  const [written] = await query(
    db,
    sql<{ inserted: boolean }>(`INSERT INTO ${row.table} AS t (uuid, ${owner}, ${inserted.join(', ')}) VALUES (${placeholders})
     ON CONFLICT (uuid) DO UPDATE SET ${columns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
      WHERE t.${owner} = EXCLUDED.${owner} AND ROW(${compared}) IS DISTINCT FROM ROW(${excluded})
     RETURNING (xmax = 0) AS inserted`),
    params,
  );
  if (written !== undefined) return written.inserted ? 'created' : 'updated';
  const [existing] = await query(db, sql<{ sameOwner: boolean }>(`SELECT ${owner} = $2 AS "sameOwner" FROM ${row.table} WHERE uuid = $1`), [
    row.uuid,
    ownerValue,
  ]);
  return existing?.sameOwner === true ? 'unchanged' : 'taken';
}

const toParameter = (value: unknown): unknown => (value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value);
