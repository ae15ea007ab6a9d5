import type { Pool } from 'pg';
import { createKafka } from '../kafka/kafka-client';
import { kafkaStream } from '../kafka/kafka-transport';
import { recordReplay } from './record-replay';
import { GroupRunning, type ReplayCommand } from './replay-request';

/** Kafka can only move the committed offsets of a group with no members, so the group must be stopped. */
const STOPPED_STATES = new Set(['Empty', 'Dead']);

/** Moves a Kafka group's committed offsets, per partition of every topic it consumed, to the first message at or after `--from`. */
export async function replayKafka(pool: Pool, brokers: string, command: ReplayCommand, progress: (line: string) => void): Promise<void> {
  const admin = createKafka(brokers, 'replay-cli').admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([command.group]);
    const state = groups[0]?.state ?? 'Dead';
    if (!STOPPED_STATES.has(state)) {
      throw new GroupRunning(`consumer group "${command.group}" is ${state}: stop every consumer of the group (its service), replay, then start it again`);
    }
    const committed = (await admin.fetchOffsets({ groupId: command.group })).filter(({ topic }) => !topic.endsWith('.dlq'));
    if (committed.length === 0) {
      progress(`group "${command.group}" has no committed offsets: nothing to replay`);
      return;
    }
    const consumedBefore: Record<string, string> = {};
    const moves: { topic: string; partitions: { partition: number; offset: string }[] }[] = [];
    for (const { topic, partitions } of committed) {
      const byTime = new Map((await admin.fetchTopicOffsetsByTimestamp(topic, command.from.getTime())).map((p) => [p.partition, p.offset]));
      const moved = partitions.flatMap(({ partition, offset }) => {
        const target = byTime.get(partition);
        // -1: the group never committed on this partition, so it will read it from the beginning anyway.
        if (target === undefined || offset === '-1' || BigInt(target) >= BigInt(offset)) return [];
        consumedBefore[kafkaStream(topic, partition)] = offset;
        progress(`${topic}[${partition}]: offset ${offset} -> ${target} (${BigInt(offset) - BigInt(target)} message(s) to replay)`);
        return [{ partition, offset: target }];
      });
      if (moved.length > 0) moves.push({ topic, partitions: moved });
    }
    if (moves.length === 0) {
      progress(`group "${command.group}" has consumed nothing since ${command.from.toISOString()}: nothing to replay`);
      return;
    }
    const id = await recordReplay(pool, command, consumedBefore);
    for (const move of moves) await admin.setOffsets({ groupId: command.group, ...move });
    progress(`group "${command.group}": offsets moved (replay #${id}); start its service to replay`);
  } finally {
    await admin.disconnect();
  }
}
