import type { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { advisoryUnlock, advisoryXactLock, consumerLockName, RETENTION_LOCK, tryAdvisoryLock } from '../embedded/advisory-lock';
import { EMBEDDED_STREAM } from '../embedded/embedded-transport';
import { readOffset, saveOffset } from '../embedded/offsets';
import { readRetentionMark } from '../retention/retention-mark';
import { BEGIN, COMMIT, ROLLBACK } from '../transaction-control';
import { recordReplay } from './record-replay';
import { EventsPruned, GroupRunning, type ReplayCommand } from './replay-request';

const REPLAY_START = sql<{ start: string }, [Date]>(
  `SELECT coalesce((SELECT min(id) - 1 FROM outbox WHERE created_at >= $1), (SELECT coalesce(max(id), 0) FROM outbox))::text AS start`,
);
const EVENTS_TO_REPLAY = sql<{ events: string }, [string, string, Date | null]>(
  'SELECT count(*)::text AS events FROM outbox WHERE id > $1 AND id <= $2 AND ($3::timestamptz IS NULL OR created_at <= $3)',
);

/**
 * Moves an embedded group's log position back to the first event committed at or after `--from`. Refused
 * when outbox retention has deleted events from that time on: the replay would silently miss them.
 */
export async function replayEmbedded(pool: Pool, command: ReplayCommand, progress: (line: string) => void): Promise<void> {
  const client = await pool.connect();
  try {
    if (!(await tryAdvisoryLock(client, consumerLockName(command.group)))) {
      throw new GroupRunning(`consumer group "${command.group}" is running; stop its service, replay, then start it again`);
    }
    try {
      await query(client, BEGIN);
      // Waits for a pruning batch under way; later batches see the group's new position and keep its events.
      await advisoryXactLock(client, RETENTION_LOCK);
      const pruned = await readRetentionMark(client);
      if (pruned && command.from < pruned.replayableFrom) {
        throw new EventsPruned(
          `events committed before ${pruned.replayableFrom.toISOString()} were deleted by outbox retention (OUTBOX_RETENTION_DAYS); ` +
            `replay --from ${pruned.replayableFrom.toISOString()} or later`,
        );
      }
      const current = await readOffset(client, command.group);
      const [{ start: startText }] = await query(client, REPLAY_START, [command.from]);
      const start = BigInt(startText);
      if (start >= current) {
        await query(client, ROLLBACK);
        progress(`group "${command.group}" is at position ${current}, before ${command.from.toISOString()}: nothing to replay`);
        return;
      }
      const [counted] = await query(client, EVENTS_TO_REPLAY, [start.toString(), current.toString(), command.to ?? null]);
      const id = await recordReplay(client, command, { [EMBEDDED_STREAM]: (current + 1n).toString() });
      await saveOffset(client, command.group, start);
      await query(client, COMMIT);
      progress(`group "${command.group}": log position ${current} -> ${start}; ${counted.events} event(s) to replay (replay #${id})`);
    } catch (error) {
      await query(client, ROLLBACK).catch(() => undefined);
      throw error;
    } finally {
      await advisoryUnlock(client, consumerLockName(command.group));
    }
  } finally {
    client.release();
  }
}
