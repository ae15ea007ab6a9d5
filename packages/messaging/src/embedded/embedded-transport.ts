import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { Pool } from 'pg';
import { deliver, type Delivery } from '../consumer/deliver';
import { EventContext } from '../consumer/event-context';
import { ReplayWindow } from '../consumer/replay-window';
import type { RetryPolicy } from '../consumer/retry-policy';
import { consumerLockName } from './advisory-lock';
import { LogFollower, type StepResult } from './log-follower';
import { LogReader, type LogRecord } from './log-reader';
import { readOffset, saveOffset } from './offsets';

export interface EmbeddedTransportOptions {
  group: string;
  topics: readonly string[];
  databaseUrl: string;
  retry: RetryPolicy;
  pollIntervalMs: number;
  batchSize: number;
}

/** The stream name of the embedded log in replay requests. */
export const EMBEDDED_STREAM = 'log';

/**
 * Consumes the outbox table as the log. One process per group consumes (advisory lock), in position order,
 * so messages of one key keep their order; the group's offset is saved after each batch (at least once).
 */
export class EmbeddedTransport extends Server implements CustomTransportStrategy {
  protected override readonly logger: Logger;
  private readonly pool: Pool;
  private readonly topics: Set<string>;
  private readonly follower: LogFollower;
  private reader: LogReader | undefined;
  private offset = 0n;
  private replay: ReplayWindow | undefined;

  constructor(private readonly options: EmbeddedTransportOptions) {
    super();
    this.logger = new Logger(`EmbeddedTransport:${options.group}`);
    this.topics = new Set(options.topics);
    this.pool = new Pool({ connectionString: options.databaseUrl, max: 3, application_name: `consumer:${options.group}` });
    // An idle pooled connection that drops must not crash the process; the follower reconnects.
    this.pool.on('error', (error) => this.logger.warn(`database connection lost: ${error.message}`));
    this.follower = new LogFollower({
      pool: this.pool,
      lockName: consumerLockName(options.group),
      pollIntervalMs: options.pollIntervalMs,
      lead: () => this.lead(),
      step: () => this.step(),
      onError: (error) => this.logger.error(`consumer stopped, restarting: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  listen(callback: () => void): void {
    this.follower.start();
    callback();
  }

  async close(): Promise<void> {
    await this.follower.stop();
    await this.pool.end();
  }

  on(): never {
    throw new Error('EmbeddedTransport emits no events');
  }

  unwrap<T>(): T {
    return this.pool as T;
  }

  private async lead(): Promise<void> {
    this.reader = new LogReader(this.pool, this.options.batchSize);
    this.offset = await readOffset(this.pool, this.options.group);
    this.replay = await ReplayWindow.load(this.pool, this.options.group);
    this.logger.log(`consuming ${[...this.topics].join(', ')} from position ${this.offset}`);
  }

  private async step(): Promise<StepResult> {
    const { records, waiting } = await this.reader!.read(this.offset);
    for (const record of records) {
      if (this.topics.has(record.topic)) await this.handle(record);
    }
    const last = records[records.length - 1];
    if (last) {
      await saveOffset(this.pool, this.options.group, last.position);
      this.offset = last.position;
      return 'busy';
    }
    return waiting ? 'gap' : 'idle';
  }

  private async handle(record: LogRecord): Promise<void> {
    const verdict = this.replay!.verdict(EMBEDDED_STREAM, record.position, record.createdAt);
    if (verdict.kind === 'skip') return;
    const outcome = await deliver(
      { server: this, retry: this.options.retry, logger: this.logger },
      record.envelope,
      (attempt) => new EventContext(this.options.group, record.topic, `log:${record.position}`, attempt, verdict.redelivery),
    );
    if (outcome.kind === 'dead') await this.deadLetter(record, outcome);
  }

  private async deadLetter(record: LogRecord, outcome: Extract<Delivery, { kind: 'dead' }>): Promise<void> {
    this.logger.error(`${record.type} ${record.eventId} dead-lettered after ${outcome.attempts} attempt(s): ${outcome.reason}`);
    await this.pool.query(
      `INSERT INTO dead_letters (consumer_group, topic, event_id, position, message, reason, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (consumer_group, event_id) DO UPDATE
         SET reason = EXCLUDED.reason, attempts = EXCLUDED.attempts, created_at = now()`,
      [this.options.group, record.topic, record.eventId, record.position.toString(), JSON.stringify(record.envelope), outcome.reason, outcome.attempts],
    );
  }
}
