import type { Admin } from 'kafkajs';
import { kafkaStream } from '../kafka/kafka-stream';

/** Per stream ("topic:partition") of `topics`, the first offset at or after `from` (the partition's end when none is). */
export async function replayTargets(admin: Admin, topics: readonly string[], from: Date): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  for (const topic of topics) {
    for (const { partition, offset } of await admin.fetchTopicOffsetsByTimestamp(topic, from.getTime())) targets.set(kafkaStream(topic, partition), offset);
  }
  return targets;
}

/** Per stream of `topics`, the offset the group has committed ('-1' where it never committed). */
export async function committedPositions(admin: Admin, group: string, topics: readonly string[]): Promise<Map<string, string>> {
  const positions = new Map<string, string>();
  for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group, topics: [...topics] })) {
    for (const { partition, offset } of partitions) positions.set(kafkaStream(topic, partition), offset);
  }
  return positions;
}

/**
 * What a replay does to a partition the group has read up to `position`: moves it back to `target` when that is
 * before it; `reached` is the position to record in the request's `consumed_before` (messages below it were
 * handled before the replay). A partition the group never committed on ('-1') is read from its beginning anyway.
 */
export function planMove(position: string, target: string | undefined): { reached: string; moveTo: string | undefined } {
  if (position === '-1') return { reached: '0', moveTo: undefined };
  if (target === undefined || BigInt(target) >= BigInt(position)) return { reached: position, moveTo: undefined };
  return { reached: position, moveTo: target };
}
