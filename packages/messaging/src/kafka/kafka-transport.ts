import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { Admin, Consumer, Kafka, KafkaMessage } from 'kafkajs';
import type { Pool } from 'pg';
import { createPool } from '@storage/persistence';
import { deliver, describe, type Delivery } from '../consumer/deliver';
import { EventContext } from '../consumer/event-context';
import { ReplayWindow } from '../consumer/replay-window';
import type { RetryPolicy } from '../consumer/retry-policy';
import { IdempotentProducer } from './idempotent-producer';
import { createKafka, deadLetterTopic, ensureTopics } from './kafka-client';
import { kafkaStream } from './kafka-stream';
import { OffsetCommits } from './offset-commits';
import { handlePartitionBatch } from './partition-batch';
import { ReplayListener } from './replay-listener';
import { RunningReplays } from './running-replays';

export interface KafkaTransportOptions {
  group: string;
  topics: readonly string[];
  kafkaBrokers: string;
  partitions: number;
  /** For replay windows and requests (the replay_requests table). */
  databaseUrl: string;
  retry: RetryPolicy;
  /** Messages of different keys of a partition's batch handled at once (one key stays in order). */
  lanes: number;
}

/**
 * A member that dies without leaving (kill -9) holds its partitions until its session times out; the broker's
 * minimum (group.min.session.timeout.ms, 6 s) lets a restarted consumer take them over within seconds rather
 * than kafkajs' default 30 s. Heartbeats every second keep a live member well inside that.
 */
const GROUP_TIMEOUTS = { sessionTimeout: 6_000, heartbeatInterval: 1_000 };

/** Offsets are committed at most this often while messages flow (`OffsetCommits`), as the embedded log's. */
const COMMIT_INTERVAL_MS = 1_000;

/**
 * Consumes Kafka topics as a consumer group. Partitions are handled at once, and the messages of a partition's
 * batch in lanes by key (`handlePartitionBatch`), so messages of one key keep their order; the offset resolved is
 * the contiguous prefix of messages handled or dead-lettered to `<topic>.dlq`, committed within a second and when
 * the consumer stops (at least once: `OffsetCommits`). If even the dead-letter write fails, the error goes to kafkajs, which fetches the message
 * again instead of committing past it. Replays requested while the group runs are applied by its members, each on
 * the partitions it holds (`RunningReplays`).
 */
export class KafkaTransport extends Server implements CustomTransportStrategy {
  protected override readonly logger: Logger;
  private readonly kafka: Kafka;
  private readonly pool: Pool;
  private consumer: Consumer | undefined;
  private readonly admin: Admin;
  private readonly producer: IdempotentProducer;
  private replay: ReplayWindow | undefined;
  private readonly stopping = new AbortController();
  private readonly commits: OffsetCommits;
  private readonly replays: RunningReplays;
  private readonly replayListener: ReplayListener;

  constructor(private readonly options: KafkaTransportOptions) {
    super();
    this.logger = new Logger(`KafkaTransport:${options.group}`);
    this.kafka = createKafka(options.kafkaBrokers, options.group);
    this.admin = this.kafka.admin();
    this.producer = new IdempotentProducer(this.kafka, this.logger);
    this.commits = new OffsetCommits(
      COMMIT_INTERVAL_MS,
      (error) => this.logger.warn(`offsets not committed, their messages will be redelivered: ${describe(error)}`),
      (topic, partition) => this.replays.withheld(topic, partition),
    );
    // Replay windows, a replay's transaction, and the replay channel's listening session.
    this.pool = createPool({ connectionString: options.databaseUrl, max: 3, application_name: `consumer:${options.group}` }, (error) =>
      this.logger.warn(`database connection lost: ${error.message}`),
    );
    this.replays = new RunningReplays({
      group: options.group,
      topics: options.topics,
      pool: this.pool,
      admin: this.admin,
      consumer: () => this.consumer!,
      commits: this.commits,
      logger: this.logger,
      reloadWindow: async () => void (this.replay = await ReplayWindow.load(this.pool, options.group)),
    });
    this.replayListener = new ReplayListener(this.pool, options.group, () => this.replays.requested(), this.logger);
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  private async start(): Promise<void> {
    const topics = [...this.options.topics, ...this.options.topics.map(deadLetterTopic)];
    await ensureTopics(this.kafka, topics, this.options.partitions);
    this.replay = await ReplayWindow.load(this.pool, this.options.group);
    await this.producer.connect();
    await this.admin.connect();
    this.consumer = this.kafka.consumer({ groupId: this.options.group, maxWaitTimeInMs: 100, retry: { retries: Number.MAX_SAFE_INTEGER }, ...GROUP_TIMEOUTS });
    // Called before the new generation's first fetch: its partitions are held until pending replays are applied.
    this.consumer.on(this.consumer.events.REBALANCING, () => void this.commits.rebalancing());
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => this.replays.joined(payload.memberAssignment));
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.options.topics], fromBeginning: true });
    // Partitions in parallel, and keys of a partition in parallel: order per key holds.
    await this.consumer.run({
      partitionsConsumedConcurrently: this.options.partitions,
      eachBatchAutoResolve: false,
      autoCommit: false,
      eachBatch: (payload) =>
        this.replays.run(
          payload.batch.topic,
          payload.batch.partition,
          () => payload.isStale(),
          async () => {
            try {
              await handlePartitionBatch(payload, this.options.lanes, (message) =>
                this.handle(payload.batch.topic, payload.batch.partition, message, () => payload.heartbeat()),
              );
            } catch (error) {
              // The finished prefix is committed, the rest fetched again.
              await this.commits.afterBatch(payload, true);
              throw error;
            }
            await this.commits.afterBatch(payload, false);
          },
        ),
    });
    this.replayListener.start();
    this.logger.log(`consuming ${this.options.topics.join(', ')}`);
  }

  async close(): Promise<void> {
    // A message waiting out an outage is given up (not committed), so disconnecting does not wait for the outage.
    this.stopping.abort();
    await this.replayListener.stop();
    await this.replays.close();
    await this.commits.close();
    await this.consumer?.disconnect();
    await this.admin.disconnect();
    await this.producer.disconnect();
    await this.pool.end();
  }

  on(): never {
    throw new Error('KafkaTransport emits no events');
  }

  unwrap<T>(): T {
    return this.kafka as T;
  }

  /** Throws (so kafkajs commits nothing and redelivers) when the consumer stops or loses the partition mid-outage. */
  private async handle(topic: string, partition: number, message: KafkaMessage, heartbeat: () => Promise<void>): Promise<void> {
    const verdict = this.replay!.verdict(kafkaStream(topic, partition), BigInt(message.offset), new Date(Number(message.timestamp)));
    if (verdict.kind === 'skip') return;
    let raw: unknown;
    try {
      raw = JSON.parse(message.value?.toString('utf8') ?? 'null');
    } catch (error) {
      return this.deadLetter(topic, partition, message, { kind: 'dead', reason: `not JSON: ${describe(error)}`, attempts: 0 });
    }
    const outcome = await deliver(
      // Heartbeats while an outage holds the message, so the group keeps the partition here.
      { server: this, retry: this.options.retry, logger: this.logger, stopping: this.stopping.signal, keepAlive: heartbeat },
      raw,
      (attempt) => new EventContext(this.options.group, topic, `${partition}:${message.offset}`, attempt, verdict.redelivery),
    );
    if (outcome.kind === 'dead') await this.deadLetter(topic, partition, message, outcome);
  }

  private async deadLetter(topic: string, partition: number, message: KafkaMessage, outcome: Extract<Delivery, { kind: 'dead' }>): Promise<void> {
    this.logger.error(`${topic}[${partition}]@${message.offset} dead-lettered after ${outcome.attempts} attempt(s): ${outcome.reason}`);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [
        {
          topic: deadLetterTopic(topic),
          messages: [
            {
              key: message.key,
              value: message.value,
              headers: {
                ...message.headers,
                'dlq-reason': outcome.reason,
                'dlq-consumer-group': this.options.group,
                'dlq-attempts': String(outcome.attempts),
                'dlq-source': `${topic}:${partition}:${message.offset}`,
              },
            },
          ],
        },
      ],
    });
  }
}
