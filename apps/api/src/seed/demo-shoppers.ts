import { query, SnakeNamingStrategy, sql } from '@storage/persistence';
import type { EntityManager } from 'typeorm';
import type { Lead } from '../model/lead.entity';
import type { Lease } from '../model/lease.entity';
import type { Note } from '../model/note.entity';
import type { Person } from '../model/person.entity';

/** A new row of an entity: the columns given, by the entity's property names (a misspelt one does not compile). */
type NewRow<Entity, Required extends keyof Entity> = Pick<Entity, Required> & Partial<Omit<Entity, 'createdAt' | 'updatedAt'>>;

/** The demo's people and their way in: persons, leads (one converted), the converted lead's signed lease, a note. */
export interface Shoppers {
  persons: NewRow<Person, 'uuid' | 'portfolioUuid' | 'firstName' | 'lastName'>[];
  leads: NewRow<Lead, 'uuid' | 'portfolioUuid' | 'facilityUuid' | 'personUuid'>[];
  leases: NewRow<Lease, 'uuid' | 'leadUuid' | 'facilityUuid' | 'unitGroupUuid' | 'rentInPennies' | 'signingTokenHash' | 'sentAt'>[];
  notes: NewRow<Note, 'uuid' | 'leadUuid' | 'noteText'>[];
}

const naming = new SnakeNamingStrategy();
const snake = (name: string): string => naming.columnName(name, undefined, []);

type Table = keyof Shoppers;

/**
 * The shopping tables' rows (the api's own: no operation writes a person or lead with given ids and history), a
 * statement per table and set of columns: rows read by the table's own row type, columns a row leaves out take
 * their defaults. Leads and leases refer to rentals written later in the seed's transaction (deferred keys).
 */
export async function insertShoppers(db: EntityManager, shoppers: Shoppers): Promise<void> {
  for (const table of ['persons', 'leads', 'leases', 'notes'] as const) {
    const byColumns = new Map<string, Record<string, unknown>[]>();
    for (const row of shoppers[table] as object[]) {
      const stored = Object.fromEntries(Object.entries(row).map(([property, value]) => [snake(property), value]));
      const columns = Object.keys(stored).join(', ');
      byColumns.set(columns, [...(byColumns.get(columns) ?? []), stored]);
    }
    for (const [columns, rows] of byColumns) await query(db, insertStatement(table, columns), [JSON.stringify(rows)]);
  }
}

function insertStatement(table: Table, columns: string) {
  const from = `SELECT ${columns} FROM jsonb_populate_recordset`;
  switch (table) {
    case 'persons':
      return sql<never, [string]>(`INSERT INTO persons (${columns}) ${from}(NULL::persons, $1::jsonb)`);
    case 'leads':
      return sql<never, [string]>(`INSERT INTO leads (${columns}) ${from}(NULL::leads, $1::jsonb)`);
    case 'leases':
      return sql<never, [string]>(`INSERT INTO leases (${columns}) ${from}(NULL::leases, $1::jsonb)`);
    case 'notes':
      return sql<never, [string]>(`INSERT INTO notes (${columns}) ${from}(NULL::notes, $1::jsonb)`);
  }
}
