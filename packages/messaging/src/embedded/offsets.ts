import { query, sql, type Queryable } from '@storage/persistence';

const OFFSET = sql<{ position: string }, [string]>('SELECT position::text FROM consumer_offsets WHERE consumer_group = $1');

/** The last log position a group (or relay) finished; 0 for a new one, so it starts at the beginning. */
export async function readOffset(db: Queryable, group: string): Promise<bigint> {
  const [row] = await query(db, OFFSET, [group]);
  return BigInt(row?.position ?? '0');
}

/** The save as SQL over two parameters (group, position), for a statement that writes more with it. */
export const saveOffsetSql = (group: string, position: string): string =>
  `INSERT INTO consumer_offsets (consumer_group, position) VALUES (${group}, ${position})
   ON CONFLICT (consumer_group) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`;

const SAVE_OFFSET = sql<never, [string, string]>(saveOffsetSql('$1', '$2'));

export async function saveOffset(db: Queryable, group: string, position: bigint): Promise<void> {
  await query(db, SAVE_OFFSET, [group, position.toString()]);
}
