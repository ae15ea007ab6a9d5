import type { Pool, PoolClient } from 'pg';
import { query, sql, type Queryable } from '@storage/persistence';
import { advisoryUnlock, advisoryXactLock, consumerLockName, RETENTION_LOCK, tryAdvisoryLock } from '../embedded/advisory-lock';
import { readOffset, saveOffset } from '../embedded/offsets';
import { readRetentionMark } from '../retention/retention-mark';
import { BEGIN, COMMIT, ROLLBACK } from '../transaction-control';
import { recordReplay } from './record-replay';
import { requestReplay } from './request-replay';
import { EventsPruned, type ReplayCommand } from './replay-request';

/** The stream name of the embedded log in replay requests (EmbeddedTransport's). */
const LOG_STREAM = 'log';

const REPLAY_START = sql<{ start: string }, [Date]>(
  `SELECT coalesce((SELECT min(id) - 1 FROM outbox WHERE created_at >= $1), (SELECT coalesce(max(id), 0) FROM outbox))::text AS start`,
);
const EVENTS_TO_REPLAY = sql<{ events: string }, [string, string, Date | null]>(
  'SELECT count(*)::text AS events FROM outbox WHERE id > $1 AND id <= $2 AND ($3::timestamptz IS NULL OR created_at <= $3)',
);
const PENDING_REPLAYS = sql<{ id: string; from: Date; to: Date | null; redeliver: boolean }, [string]>(
  `SELECT id::text, from_time AS "from", to_time AS "to", redeliver FROM replay_requests
    WHERE consumer_group = $1 AND consumed_before = '{}'::jsonb ORDER BY id`,
);
const APPLIED = sql<never, [string, string]>(`UPDATE replay_requests SET consumed_before = $2::jsonb WHERE id = $1`);
const DROPPED = sql<never, [string]>(`DELETE FROM replay_requests WHERE id = $1`);
const REQUEST_STATE = sql<{ consumedBefore: Record<string, string> }, [string]>(
  `SELECT consumed_before AS "consumedBefore" FROM replay_requests WHERE id = $1`,
);

/** A replay to apply: a new one (the group is stopped), or one a running group's consumer found recorded. */
type Replay = ReplayCommand & { pendingId?: string };

/**
 * Applies a replay, in the caller's transaction, the caller holding the group's lock (the CLI, the group stopped, or
 * the group's own consumer, its lanes settled and its offset saved): moves the group's log position back to the first
 * event committed at or after `from`, and records the position it had reached, so the events below it are known as
 * replayed (ReplayWindow). Refused when outbox retention has deleted events from that time on: the replay would
 * silently miss them. Returns the line to report.
 */
export async function applyReplay(client: Queryable, replay: Replay): Promise<string> {
  // Waits for a pruning batch under way; later batches see the group's new position and keep its events.
  await advisoryXactLock(client, RETENTION_LOCK);
  const pruned = await readRetentionMark(client);
  if (pruned && replay.from < pruned.replayableFrom) {
    throw new EventsPruned(
      `events committed before ${pruned.replayableFrom.toISOString()} were deleted by outbox retention (OUTBOX_RETENTION_DAYS); ` +
        `replay --from ${pruned.replayableFrom.toISOString()} or later`,
    );
  }
  const current = await readOffset(client, replay.group);
  const [{ start: startText }] = await query(client, REPLAY_START, [replay.from]);
  const start = BigInt(startText);
  if (start >= current) {
    if (replay.pendingId !== undefined) await query(client, DROPPED, [replay.pendingId]);
    return `group "${replay.group}" is at position ${current}, before ${replay.from.toISOString()}: nothing to replay`;
  }
  const [counted] = await query(client, EVENTS_TO_REPLAY, [start.toString(), current.toString(), replay.to ?? null]);
  const consumedBefore = { [LOG_STREAM]: (current + 1n).toString() };
  let id = replay.pendingId;
  if (id === undefined) id = await recordReplay(client, replay, consumedBefore);
  else await query(client, APPLIED, [id, JSON.stringify(consumedBefore)]);
  await saveOffset(client, replay.group, start);
  return `group "${replay.group}": log position ${current} -> ${start}; ${counted.events} event(s) to replay (replay #${id})`;
}

/** Applies, in order, the replays recorded for the group while it ran (its consumer calls this holding the lock). */
export async function applyPendingReplays(client: PoolClient, group: string, report: (line: string) => void): Promise<number> {
  const pending = await query(client, PENDING_REPLAYS, [group]);
  for (const request of pending) {
    await query(client, BEGIN);
    try {
      report(await applyReplay(client, { group, from: request.from, to: request.to ?? undefined, redeliver: request.redeliver, pendingId: request.id }));
      await query(client, COMMIT);
    } catch (error) {
      await query(client, ROLLBACK).catch(() => undefined);
      if (!(error instanceof EventsPruned)) throw error;
      // Refused for good: dropped, so the CLI waiting for it says so rather than waiting on.
      report(`replay #${request.id} refused: ${error.message}`);
      await query(client, DROPPED, [request.id]);
    }
  }
  return pending.length;
}

/**
 * The CLI's replay. A stopped group (its lock free) is moved here, as before. A running group's consumer holds the
 * lock: the replay is recorded and announced, the consumer applies it at its next step (its lanes settled, so nothing
 * is lost nor delivered twice beyond what the replay asks), and this waits until it has, reporting progress; should
 * the group stop meanwhile, this takes the lock and applies it itself.
 */
export async function replayEmbedded(pool: Pool, command: ReplayCommand, progress: (line: string) => void, waitMs = 250): Promise<void> {
  const client = await pool.connect();
  try {
    if (await tryAdvisoryLock(client, consumerLockName(command.group))) {
      try {
        await query(client, BEGIN);
        progress(await applyReplay(client, command));
        await query(client, COMMIT);
      } catch (error) {
        await query(client, ROLLBACK).catch(() => undefined);
        throw error;
      } finally {
        await advisoryUnlock(client, consumerLockName(command.group));
      }
      return;
    }
    const id = await requestReplay(client, command);
    progress(`group "${command.group}" is running: replay #${id} requested, waiting for its consumer to apply it`);
    const started = Date.now();
    let reported = started;
    for (;;) {
      const [state] = await query(client, REQUEST_STATE, [id]);
      if (!state) return progress(`replay #${id}: nothing to replay, or refused (see the group's log)`);
      const before = state.consumedBefore[LOG_STREAM];
      if (before !== undefined) return progress(`replay #${id} applied by the running consumer: it had read through position ${BigInt(before) - 1n}`);
      if (await tryAdvisoryLock(client, consumerLockName(command.group))) {
        // The group stopped before applying it: apply it here.
        try {
          await applyPendingReplays(client, command.group, progress);
        } finally {
          await advisoryUnlock(client, consumerLockName(command.group));
        }
        return;
      }
      if (Date.now() - reported >= 5_000) {
        reported = Date.now();
        progress(`replay #${id}: still waiting for the running consumer (${Math.round((reported - started) / 1000)} s)`);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  } finally {
    client.release();
  }
}
