import type { Logger } from '@nestjs/common';
import type { Admin, Consumer, TopicPartition, TopicPartitionOffset } from 'kafkajs';
import type { Pool } from 'pg';
import { query } from '@storage/persistence';
import { describe } from '../consumer/deliver';
import { committedPositions, planMove, replayTargets } from '../replay/kafka-positions';
import { lockRequest, pendingKafkaReplays, recordPositions, type PendingKafkaReplay } from '../replay/kafka-request-record';
import { BEGIN, COMMIT, ROLLBACK } from '../transaction-control';
import { kafkaStream } from './kafka-stream';
import type { OffsetCommits } from './offset-commits';

export interface RunningReplaysOptions {
  group: string;
  topics: readonly string[];
  pool: Pool;
  admin: Admin;
  consumer: () => Consumer;
  commits: OffsetCommits;
  logger: Logger;
  /** Loads the group's ReplayWindow again: after a replay is applied, and after a rebalance. */
  reloadWindow: () => Promise<void>;
}

/** A check that failed (database or broker away, a rebalance under way) is tried again after this long. */
const RETRY_MS = 5_000;

/**
 * Applies, in a running Kafka consumer group, the replays the CLI requested (pending rows of `replay_requests`):
 * each member on the partitions it holds, when notified, at every (re)join, and again after a failure.
 *
 * Invariant: a partition is moved back only while this member holds it and nothing of it is in flight, and its
 * position before the move is recorded in the same step: the partition is held (paused, its batches skipped
 * unresolved), its running batch finished and every resolved offset committed; its position reached (the group's
 * committed offset) is recorded in the request's `consumed_before` in a database transaction that commits only
 * after Kafka accepted the target offset from this member's generation (so a crash after it does not lose the
 * replay, and a partition lost to a rebalance is refused, not moved), then it is sought to the target and released.
 * Until a batch of the partition shows the seek has landed, its old resolved offset is withheld from commits, so it
 * cannot be committed over the target. So each partition is moved once per request, by its holder, with the
 * position its messages were handled up to: nothing lost, redeliveries marked exactly (ReplayWindow, reloaded
 * before the partition is released), one key's messages still in order (a partition is read by one batch at a time).
 * A crash between Kafka's commit and the database's leaves the partition moved but unrecorded: its next holder
 * records the moved position, so the messages read again are not marked as redeliveries (deduplicated all the same).
 * kafkajs keeps a seek it had no fetch to apply before the partition was taken away (a few milliseconds' window)
 * and applies it should the partition come back: that reads the replayed messages again, under the same request,
 * which handlers deduplicate (the dispatcher's redelivery key names the request).
 */
export class RunningReplays {
  private assignment: TopicPartition[] = [];
  /** Partitions whose batches are skipped (paused while a check settles or moves them), by how many checks hold them. */
  private readonly held = new Map<string, number>();
  /** Partitions sought back whose seek has not been seen to land: their resolved offset predates it. */
  private readonly moving = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private checks: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: RunningReplaysOptions) {}

  /**
   * The member (re)joined with `assignment`: its partitions are held until the window is reloaded (another member
   * may have applied a replay on them) and any pending request is applied to them. kafkajs calls this before it
   * fetches for the new generation, whose resolved offsets start from the committed ones (a target committed before
   * is where the partition resumes): nothing is withheld any more.
   */
  joined(assignment: Record<string, number[]>): void {
    this.moving.clear();
    this.assignment = Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition })));
    const all = this.assignment;
    this.hold(all);
    this.schedule(async () => {
      try {
        await this.applyPending();
        await this.options.reloadWindow();
      } finally {
        this.release(all);
      }
    });
  }

  /** A replay was announced (or may have been missed): look for pending requests. */
  requested(): void {
    this.schedule(() => this.applyPending());
  }

  /** Runs a partition's batch, unless the partition is held or the batch was fetched before its seek landed. */
  async run(topic: string, partition: number, isStale: () => boolean, batch: () => Promise<void>): Promise<void> {
    const stream = kafkaStream(topic, partition);
    // Left unresolved: kafkajs fetches it again from the resolved offset once the partition is resumed.
    if (this.held.has(stream)) return;
    if (this.moving.has(stream)) {
      if (isStale()) return;
      this.moving.delete(stream);
    }
    const running = batch();
    this.inFlight.set(stream, running);
    try {
      await running;
    } finally {
      if (this.inFlight.get(stream) === running) this.inFlight.delete(stream);
    }
  }

  /** For OffsetCommits: a partition sought back keeps its old resolved offset until the seek lands. */
  withheld(topic: string, partition: number): boolean {
    return this.moving.has(kafkaStream(topic, partition));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.checks;
  }

  private schedule(check: () => Promise<void>): void {
    this.checks = this.checks.then(check).catch((error: unknown) => {
      this.options.logger.warn(`replay requests not checked, trying again in ${RETRY_MS} ms: ${describe(error)}`);
      if (this.closed) return;
      clearTimeout(this.retry);
      // The window too: a failed check after a rejoin may not have reloaded it.
      this.retry = setTimeout(() => this.schedule(() => this.applyPending().then(this.options.reloadWindow)), RETRY_MS);
    });
  }

  private async applyPending(): Promise<void> {
    if (this.closed) return;
    const pending = await pendingKafkaReplays(this.options.pool, this.options.group);
    const todo = this.assignment.filter((tp) => pending.some((request) => !(kafkaStream(tp.topic, tp.partition) in request.consumedBefore)));
    if (todo.length === 0) return;
    this.hold(todo);
    try {
      await Promise.allSettled(todo.flatMap((tp) => this.inFlight.get(kafkaStream(tp.topic, tp.partition)) ?? []));
      // The position reached is then the committed offset.
      await this.options.commits.flush();
      for (const request of pending) await this.apply(request, todo);
      await this.options.reloadWindow();
    } finally {
      this.release(todo);
    }
  }

  /** Applies one request to the held partitions it has no position for yet (another member may have recorded some). */
  private async apply(request: PendingKafkaReplay, partitions: readonly TopicPartition[]): Promise<void> {
    const { admin, group, topics, logger } = this.options;
    const targets = await replayTargets(admin, topics, request.from);
    const positions = await committedPositions(admin, group, topics);
    const client = await this.options.pool.connect();
    const moves: TopicPartitionOffset[] = [];
    try {
      await query(client, BEGIN);
      const recorded = await lockRequest(client, request.id);
      if (recorded === undefined) return void (await query(client, ROLLBACK));
      const reached: Record<string, string> = {};
      for (const { topic, partition } of partitions) {
        const stream = kafkaStream(topic, partition);
        if (stream in recorded) continue;
        const plan = planMove(positions.get(stream) ?? '-1', targets.get(stream));
        reached[stream] = plan.reached;
        if (plan.moveTo !== undefined) moves.push({ topic, partition, offset: plan.moveTo });
      }
      await recordPositions(client, request.id, recorded, reached, targets.keys());
      if (moves.length > 0) await this.move(moves);
      await query(client, COMMIT);
    } catch (error) {
      await query(client, ROLLBACK).catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    for (const { topic, partition, offset } of moves) {
      logger.log(`replay #${request.id}: ${topic}[${partition}] offset ${positions.get(kafkaStream(topic, partition))} -> ${offset}`);
    }
  }

  /** Commits the targets as this member (refused if it no longer holds them), then seeks there. */
  private async move(moves: TopicPartitionOffset[]): Promise<void> {
    const consumer = this.options.consumer();
    const owned = new Set(consumer.paused().flatMap(({ topic, partitions }) => partitions.map((partition) => kafkaStream(topic, partition))));
    const lost = moves.filter(({ topic, partition }) => !owned.has(kafkaStream(topic, partition)));
    if (lost.length > 0) throw new Error(`partitions reassigned meanwhile: ${lost.map(({ topic, partition }) => `${topic}[${partition}]`).join(', ')}`);
    for (const { topic, partition } of moves) this.moving.add(kafkaStream(topic, partition));
    try {
      // Checked in the same tick: kafkajs commits with the generation it has when called.
      await consumer.commitOffsets(moves);
      // kafkajs skips the commit silently when its consumer is stopping: the targets must be there.
      const committed = await committedPositions(this.options.admin, this.options.group, [...new Set(moves.map(({ topic }) => topic))]);
      const missed = moves.filter(({ topic, partition, offset }) => committed.get(kafkaStream(topic, partition)) !== offset);
      if (missed.length > 0) throw new Error(`target offsets not committed: ${missed.map(({ topic, partition }) => `${topic}[${partition}]`).join(', ')}`);
    } catch (error) {
      for (const { topic, partition } of moves) this.moving.delete(kafkaStream(topic, partition));
      throw error;
    }
    for (const move of moves) consumer.seek(move);
  }

  private hold(partitions: readonly TopicPartition[]): void {
    for (const { topic, partition } of partitions) {
      const stream = kafkaStream(topic, partition);
      this.held.set(stream, (this.held.get(stream) ?? 0) + 1);
    }
    if (partitions.length > 0) this.options.consumer().pause(byTopic(partitions));
  }

  /** Resumes the partitions no other check still holds (a rejoin's hold outlives an earlier check's). */
  private release(partitions: readonly TopicPartition[]): void {
    const free = partitions.filter(({ topic, partition }) => {
      const stream = kafkaStream(topic, partition);
      const holds = (this.held.get(stream) ?? 1) - 1;
      if (holds > 0) this.held.set(stream, holds);
      else this.held.delete(stream);
      return holds <= 0;
    });
    if (free.length > 0) this.options.consumer().resume(byTopic(free));
  }
}

function byTopic(partitions: readonly TopicPartition[]): { topic: string; partitions: number[] }[] {
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of partitions) topics.set(topic, [...(topics.get(topic) ?? []), partition]);
  return [...topics].map(([topic, numbers]) => ({ topic, partitions: numbers }));
}
