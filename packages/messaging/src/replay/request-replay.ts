import { query, sql, type Queryable } from '@storage/persistence';
import type { ReplayCommand } from './replay-request';

/**
 * A replay asked of a running group: recorded with no position yet (`consumed_before` empty, which no applied replay
 * has), and announced, so the group's own consumers apply it: on the group's replay channel (the embedded consumer's
 * log follower listens there) and on REPLAY_REQUESTS_CHANNEL with the group as payload (Kafka members listen there).
 */
const REQUEST_REPLAY = sql<{ id: string; group_channel: string; requests_channel: string }, [string, Date, Date | null, boolean]>(
  `WITH request AS (
     INSERT INTO replay_requests (consumer_group, from_time, to_time, redeliver, consumed_before)
       VALUES ($1, $2, $3, $4, '{}') RETURNING id)
   SELECT id::text, pg_notify('replay:' || $1, id::text) AS group_channel, pg_notify('replay_requests', $1) AS requests_channel FROM request`,
);

/** The channel a running embedded consumer of `group` listens on for replay requests. */
export const replayChannel = (group: string): string => `replay:${group}`;

/** The channel every replay request is announced on, its payload the group (LISTEN takes no parameter). */
export const REPLAY_REQUESTS_CHANNEL = 'replay_requests';

/** Records a replay for the running group to apply, and announces it; returns its id. */
export async function requestReplay(db: Queryable, command: ReplayCommand): Promise<string> {
  const [{ id }] = await query(db, REQUEST_REPLAY, [command.group, command.from, command.to ?? null, command.redeliver]);
  return id;
}
