import { query, sql, type Queryable } from '@storage/persistence';
import type { ReplayCommand } from './replay-request';

const INSERT_REPLAY = sql<{ id: string }, [string, Date, Date | null, boolean, string]>(
  `INSERT INTO replay_requests (consumer_group, from_time, to_time, redeliver, consumed_before)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text`,
);

/** Records the replay, so the group's transport knows which messages it is seeing again (see ReplayWindow). */
export async function recordReplay(db: Queryable, command: ReplayCommand, consumedBefore: Record<string, string>): Promise<string> {
  const [row] = await query(db, INSERT_REPLAY, [command.group, command.from, command.to ?? null, command.redeliver, JSON.stringify(consumedBefore)]);
  return row.id;
}
