import type { Pool, PoolClient } from 'pg';
import type { ReplayCommand } from './replay-request';

/** Records the replay, so the group's transport knows which messages it is seeing again (see ReplayWindow). */
export async function recordReplay(db: Pick<Pool | PoolClient, 'query'>, command: ReplayCommand, consumedBefore: Record<string, string>): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO replay_requests (consumer_group, from_time, to_time, redeliver, consumed_before)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text`,
    [command.group, command.from, command.to ?? null, command.redeliver, JSON.stringify(consumedBefore)],
  );
  return rows[0].id;
}
