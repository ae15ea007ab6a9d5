import { ConflictException } from '@nestjs/common';
import { SnakeNamingStrategy } from '@storage/persistence';
import type { EntityManager } from 'typeorm';
import type { Outcome } from './catalog.dto';

const naming = new SnakeNamingStrategy();
const snake = (name: string): string => naming.columnName(name, undefined, []);

export interface UpsertSpec {
  /** What the record is, for messages: "Facility". */
  what: string;
  table: string;
  /** The caller's uuid: a retry of the same PUT finds the record it created. */
  uuid: string;
  /** The owner's column (entity property name) and value: a uuid already used under another owner is refused. */
  owner: [property: string, value: string];
  /** The record's other columns by entity property name; plain objects are stored as JSON. */
  values: Record<string, unknown>;
  /** Columns only a new record is given (derived ones another writer keeps, such as current rates). */
  insertOnly?: Record<string, unknown>;
}

/**
 * Creates the record or brings it to `values`, in one statement (concurrent retries cannot both insert), and
 * says which: the row is only written when a value differs, so a retry changes nothing, not even the row
 * version. A uuid taken by a record of another owner is 409, never overwritten.
 */
export async function upsertRecord(db: EntityManager, spec: UpsertSpec): Promise<Outcome> {
  const [ownerProperty, ownerValue] = spec.owner;
  const owner = snake(ownerProperty);
  const columns = Object.keys(spec.values).map(snake);
  const insertOnly = spec.insertOnly ?? {};
  const inserted = [...columns, ...Object.keys(insertOnly).map(snake)];
  const params = [spec.uuid, ownerValue, ...[...Object.values(spec.values), ...Object.values(insertOnly)].map(toParameter)];
  const placeholders = params.map((_, index) => `$${index + 1}`).join(', ');
  const compared = columns.map((column) => `t.${column}`).join(', ');
  const excluded = columns.map((column) => `EXCLUDED.${column}`).join(', ');
  const rows: { inserted: boolean }[] = await db.query(
    `INSERT INTO ${spec.table} AS t (uuid, ${owner}, ${inserted.join(', ')}) VALUES (${placeholders})
     ON CONFLICT (uuid) DO UPDATE SET ${columns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
      WHERE t.${owner} = EXCLUDED.${owner} AND ROW(${compared}) IS DISTINCT FROM ROW(${excluded})
     RETURNING (xmax = 0) AS inserted`,
    params,
  );
  if (rows[0] !== undefined) return rows[0].inserted ? 'created' : 'updated';
  const [existing]: { sameOwner: boolean }[] = await db.query(`SELECT ${owner} = $2 AS "sameOwner" FROM ${spec.table} WHERE uuid = $1`, [spec.uuid, ownerValue]);
  if (existing?.sameOwner !== true) throw new ConflictException(`${spec.what} ${spec.uuid} is already used elsewhere; choose another uuid.`);
  return 'unchanged';
}

const toParameter = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;

/** The outcome of several writes making up one record (its row, then its links): created wins, then updated. */
export function combine(first: Outcome, ...rest: boolean[]): Outcome {
  if (first !== 'unchanged') return first;
  return rest.some(Boolean) ? 'updated' : 'unchanged';
}
