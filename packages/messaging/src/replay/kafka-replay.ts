import type { Admin } from 'kafkajs';
import type { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { createKafka } from '../kafka/kafka-client';
import { kafkaStream } from '../kafka/kafka-stream';
import { BEGIN, COMMIT, ROLLBACK } from '../transaction-control';
import { planMove, replayTargets } from './kafka-positions';
import { isFinished, lockRequest, recordedStreams, recordPositions } from './kafka-request-record';
import { recordReplay } from './record-replay';
import type { ReplayCommand } from './replay-request';
import { requestReplay } from './request-replay';

/** Kafka can only move the committed offsets of a group with no members. */
const STOPPED_STATES = new Set(['Empty', 'Dead']);

const REQUEST_STATE = sql<{ consumedBefore: Record<string, string> }, [string]>(
  `SELECT consumed_before AS "consumedBefore" FROM replay_requests WHERE id = $1`,
);

interface Moves {
  /** Per stream moved, the offset the group had reached. */
  consumedBefore: Record<string, string>;
  offsets: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

/**
 * The CLI's replay on Kafka. A stopped group's committed offsets are moved here with the admin, per partition of
 * every topic it consumed, to the first message at or after `--from`. A running group cannot be moved from outside:
 * the replay is recorded and announced, its members apply it on the partitions they hold (RunningReplays), and this
 * waits until every partition has it, reporting progress; should the group stop meanwhile, this applies it to the
 * partitions left.
 */
export async function replayKafka(pool: Pool, brokers: string, command: ReplayCommand, progress: (line: string) => void, waitMs = 250): Promise<void> {
  const admin = createKafka(brokers, 'replay-cli').admin();
  await admin.connect();
  try {
    if (await isStopped(admin, command.group)) return await replayStopped(pool, admin, command, progress);
    const id = await requestReplay(pool, command);
    progress(`group "${command.group}" is running: replay #${id} requested, waiting for its consumers to apply it on every partition`);
    const started = Date.now();
    let reported = started;
    for (;;) {
      const [{ consumedBefore }] = await query(pool, REQUEST_STATE, [id]);
      if (isFinished(consumedBefore)) {
        return progress(`replay #${id} applied by the running consumers on ${recordedStreams(consumedBefore).length} partition(s)`);
      }
      if (await isStopped(admin, command.group)) {
        try {
          return await applyLeft(pool, admin, command, id, progress);
        } catch (error) {
          // A member joined meanwhile (Kafka refuses to move the offsets of a group with members): it applies the request.
          if (await isStopped(admin, command.group)) throw error;
        }
      }
      if (Date.now() - reported >= 5_000) {
        reported = Date.now();
        const applied = recordedStreams(consumedBefore).length;
        progress(`replay #${id}: applied on ${applied} partition(s) so far, waiting for the running consumers (${Math.round((reported - started) / 1000)} s)`);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  } finally {
    await admin.disconnect();
  }
}

async function isStopped(admin: Admin, group: string): Promise<boolean> {
  const { groups } = await admin.describeGroups([group]);
  return STOPPED_STATES.has(groups[0]?.state ?? 'Dead');
}

/** A stopped group: its offsets moved back and the replay recorded, as one command. */
async function replayStopped(pool: Pool, admin: Admin, command: ReplayCommand, progress: (line: string) => void): Promise<void> {
  const moves = await planStopped(admin, command, new Set(), progress);
  if (moves === undefined) return;
  if (moves.offsets.length === 0) {
    return progress(`group "${command.group}" has consumed nothing since ${command.from.toISOString()}: nothing to replay`);
  }
  const id = await recordReplay(pool, command, moves.consumedBefore);
  for (const offsets of moves.offsets) await admin.setOffsets({ groupId: command.group, ...offsets });
  progress(`group "${command.group}": offsets moved (replay #${id}); start its service to replay`);
}

/** The group stopped before its members applied request `id` everywhere: the partitions left are moved here. */
async function applyLeft(pool: Pool, admin: Admin, command: ReplayCommand, id: string, progress: (line: string) => void): Promise<void> {
  progress(`group "${command.group}" stopped before applying replay #${id} everywhere: applying it to the partitions left`);
  const client = await pool.connect();
  try {
    await query(client, BEGIN);
    const recorded = (await lockRequest(client, id)) ?? {};
    const moves = await planStopped(admin, command, new Set(recordedStreams(recorded)), progress);
    // Finished: only the partitions moved are recorded, as for a stopped group.
    await recordPositions(client, id, recorded, moves?.consumedBefore ?? {}, []);
    for (const offsets of moves?.offsets ?? []) await admin.setOffsets({ groupId: command.group, ...offsets });
    await query(client, COMMIT);
  } catch (error) {
    await query(client, ROLLBACK).catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  progress(`replay #${id} applied; start the group's service to replay`);
}

/** The moves of a stopped group's partitions (but those in `done`); undefined when the group never committed. */
async function planStopped(admin: Admin, command: ReplayCommand, done: Set<string>, progress: (line: string) => void): Promise<Moves | undefined> {
  const committed = (await admin.fetchOffsets({ groupId: command.group })).filter(({ topic }) => !topic.endsWith('.dlq'));
  if (committed.length === 0) {
    progress(`group "${command.group}" has no committed offsets: nothing to replay`);
    return undefined;
  }
  const moves: Moves = { consumedBefore: {}, offsets: [] };
  for (const { topic, partitions } of committed) {
    const targets = await replayTargets(admin, [topic], command.from);
    const moved = partitions.flatMap(({ partition, offset }) => {
      const stream = kafkaStream(topic, partition);
      const { reached, moveTo } = planMove(offset, targets.get(stream));
      if (done.has(stream) || moveTo === undefined) return [];
      moves.consumedBefore[stream] = reached;
      progress(`${topic}[${partition}]: offset ${offset} -> ${moveTo} (${BigInt(offset) - BigInt(moveTo)} message(s) to replay)`);
      return [{ partition, offset: moveTo }];
    });
    if (moved.length > 0) moves.offsets.push({ topic, partitions: moved });
  }
  return moves;
}
