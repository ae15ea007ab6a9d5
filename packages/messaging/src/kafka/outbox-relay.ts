import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Kafka, Message } from 'kafkajs';
import type { Pool } from 'pg';
import { createPool, query, sql } from '@storage/persistence';
import { describe } from '../consumer/deliver';
import { RELAY_PREFIX, relayName } from '../embedded/advisory-lock';
import { LogFollower, type StepResult } from '../embedded/log-follower';
import { LogReader, type LogRecord } from '../embedded/log-reader';
import { AnnouncedRecords } from '../embedded/announced-records';
import { savedOffset, readOffset, saveOffset } from '../embedded/offsets';
import { IdempotentProducer } from './idempotent-producer';
import { createKafka, ensureTopics } from './kafka-client';

/** Per topic, the rows after its relay's saved position: those not yet acknowledged by Kafka. */
const LAG = sql<{ events: string; oldest_ms: string | null }, [topics: readonly string[]]>(
  `SELECT count(*)::text AS events, (extract(epoch FROM now() - min(o.created_at)) * 1000)::bigint::text AS oldest_ms
     FROM outbox o
    WHERE o.topic = ANY($1::text[]) AND o.id > coalesce(${savedOffset(`'${RELAY_PREFIX}' || o.topic`)}, 0)`,
);

export interface OutboxRelayOptions {
  /** The app running this relay: names its logs and connections (the relay publishes every app's rows). */
  service: string;
  kafkaBrokers: string;
  partitions: number;
  databaseUrl: string;
  /** The topics relayed, each by a relay of its own; created up front, so consumers can subscribe before the first event. */
  topics: readonly string[];
  batchSize: number;
  pollIntervalMs: number;
  lagReportIntervalMs: number;
}

export interface RelayLag {
  /** Outbox rows of the relayed topics not yet published. */
  events: number;
  /** Age of the oldest of them, 0 when none. */
  oldestMs: number;
}

/**
 * Publishes the outbox to Kafka: a relay per topic (`TopicRelay`), whichever app wrote the rows. Kafka keeps the
 * order of one key within one topic, and that is the order a topic's relay keeps: its rows in log order, which is
 * commit order, so a rental's events keep it whichever apps wrote them (the api and the scheduler both write a
 * rental's lifecycle events and billing facts), and an app's events do not wait for that app to run. One relay per
 * topic rather than one for the whole log: a topic's events do not wait behind another topic's backlog (a worst
 * billing day's million and a half charge facts hold up no lifecycle event).
 */
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly kafka: Kafka;
  private readonly pool: Pool;
  private readonly relays: TopicRelay[];
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.logger = new Logger(`OutboxRelay:${options.service}`);
    this.kafka = createKafka(options.kafkaBrokers, `relay-${options.service}`);
    // Each topic's relay holds a session (its lock), and reads and saves its position beside it.
    this.pool = createPool({ connectionString: options.databaseUrl, max: options.topics.length + 2, application_name: `relay:${options.service}` }, (error) =>
      this.logger.warn(`database connection lost: ${error.message}`),
    );
    this.relays = options.topics.map((topic) => new TopicRelay(topic, this.kafka, this.pool, options));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async start(): Promise<void> {
    await ensureTopics(this.kafka, this.options.topics, this.options.partitions);
    for (const relay of this.relays) relay.start();
    this.lagTimer = setInterval(() => void this.reportLag(), this.options.lagReportIntervalMs);
    this.lagTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.lagTimer);
    await Promise.all(this.relays.map((relay) => relay.stop()));
    await this.pool.end();
  }

  async lag(): Promise<RelayLag> {
    const [row] = await query(this.pool, LAG, [this.options.topics]);
    return { events: Number(row?.events ?? 0), oldestMs: Number(row?.oldest_ms ?? 0) };
  }

  private async reportLag(): Promise<void> {
    try {
      const lag = await this.lag();
      if (lag.events > 0) this.logger.log(`relay lag: ${lag.events} event(s), oldest ${lag.oldestMs} ms`);
    } catch (error) {
      this.logger.warn(`relay lag unknown: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * One topic's relay: one leader across every app and replica (advisory lock `relay:<topic>`), which reads the log
 * in order and sends the topic's rows with an idempotent producer (acks from all replicas), the position saved only
 * after Kafka acknowledged every row up to it (what it has published: lag and retention read it). A crash between
 * the acknowledgement and the save re-sends a batch (consumers dedupe by event id); while Kafka is away the follower
 * backs off and resumes from the saved position.
 */
class TopicRelay {
  private readonly name: string;
  private readonly logger: Logger;
  private readonly follower: LogFollower;
  private readonly producer: IdempotentProducer;
  private reader: LogReader | undefined;
  private offset = 0n;
  private readonly announced = new AnnouncedRecords();
  /** The position save of the last stretch sent (see `publish`). */
  private saving: Promise<{ error: unknown } | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly topic: string,
    kafka: Kafka,
    private readonly pool: Pool,
    private readonly options: OutboxRelayOptions,
  ) {
    this.name = relayName(topic);
    this.logger = new Logger(`OutboxRelay:${options.service}:${topic}`);
    this.producer = new IdempotentProducer(kafka, this.logger);
    this.follower = new LogFollower({
      pool,
      lockName: this.name,
      topics: [topic],
      onNotification: (payload) => this.announced.offer(payload),
      pollIntervalMs: options.pollIntervalMs,
      lead: () => this.lead(),
      step: () => this.step(),
      // The last save lands before the lock is released: a later one could move the next leader's position back.
      resign: () => this.positionSaved().catch((error: unknown) => this.logger.warn(`relay position not saved, will re-send: ${describe(error)}`)),
      onError: (error) => this.logger.warn(`relay paused, will retry: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  start(): void {
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
    await this.producer.disconnect();
  }

  private async lead(): Promise<void> {
    await this.producer.connect();
    this.announced.clear();
    this.reader = new LogReader(this.pool, this.options.batchSize, [this.topic]);
    this.offset = await readOffset(this.pool, this.name);
    this.logger.log(`relaying from position ${this.offset}`);
  }

  private async step(): Promise<StepResult> {
    const announced = this.announced.take(this.offset);
    if (announced.length > 0) {
      await this.publish(announced);
      // The next rows were all announced: nothing to read until the next notification (or the safety poll).
      if (!this.announced.mustRead) return 'idle';
    }
    this.announced.reading();
    const { records, waiting } = await this.reader!.read(this.offset);
    if (records.length === 0) return waiting ? 'gap' : 'idle';
    await this.publish(records);
    return 'busy';
  }

  /**
   * Sends the topic's rows of the next stretch of the log, then has the position after it saved. The save runs
   * while the next stretch is sent, one at a time and in log order, so the saved position only moves forward and
   * never past what Kafka acknowledged; a failed save stops this leadership, and the next one re-sends from the saved
   * position (consumers dedupe).
   */
  private async publish(records: readonly LogRecord[]): Promise<void> {
    const through = records[records.length - 1].position;
    const messages = records.filter((record) => record.topic === this.topic).map(messageOf);
    if (messages.length > 0) await this.producer.sendBatch({ acks: -1, topicMessages: [{ topic: this.topic, messages }] });
    await this.positionSaved();
    this.saving = this.savePosition(through);
    this.offset = through;
  }

  /** Waits for the save under way; throws its failure. */
  private async positionSaved(): Promise<void> {
    const failure = await this.saving;
    this.saving = Promise.resolve(undefined);
    if (failure) throw failure.error;
  }

  /** Resolves with its failure, if any. */
  private async savePosition(through: bigint): Promise<{ error: unknown } | undefined> {
    try {
      await saveOffset(this.pool, this.name, through);
      return undefined;
    } catch (error) {
      return { error };
    }
  }
}

/** A record as a Kafka message: key = rental, the envelope as JSON, its id and type in headers. */
function messageOf(record: LogRecord): Message {
  return {
    key: record.key,
    value: JSON.stringify(record.envelope),
    // The commit-side time, so `replay --from` means the same instant in Kafka and embedded.
    timestamp: String(record.createdAt.getTime()),
    headers: { 'event-id': record.eventId, 'event-type': record.type },
  };
}
