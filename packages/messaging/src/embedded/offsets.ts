import { fragment, query, sql, type Queryable, type SqlFragment } from '@storage/persistence';

/** A group's (or relay's) saved position as an SQL expression, null when it saved none; `group` is an SQL expression. */
export const savedOffset = (group: string): SqlFragment => fragment(`(SELECT g.position FROM consumer_offsets g WHERE g.consumer_group = ${group})`);

const OFFSET = sql<{ position: string }, [string]>(`SELECT ${savedOffset('$1')}::text AS position`);

/** The last log position a group (or relay) finished; 0 for a new one, so it starts at the beginning. */
export async function readOffset(db: Queryable, group: string): Promise<bigint> {
  const [row] = await query(db, OFFSET, [group]);
  return BigInt(row?.position ?? '0');
}

const SAVE_OFFSET = sql<never, [string, string]>(
  `INSERT INTO consumer_offsets (consumer_group, position) VALUES ($1, $2)
   ON CONFLICT (consumer_group) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
);

export async function saveOffset(db: Queryable, group: string, position: bigint): Promise<void> {
  await query(db, SAVE_OFFSET, [group, position.toString()]);
}
