import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { Pool } from 'pg';
import { createPool, query, sql } from '@storage/persistence';
import { deliver, describe, type Delivery } from '../consumer/deliver';
import { isTransient } from '../consumer/transient-error';
import { EventContext } from '../consumer/event-context';
import { ReplayWindow } from '../consumer/replay-window';
import type { RetryPolicy } from '../consumer/retry-policy';
import { applyPendingReplays } from '../replay/embedded-replay';
import { replayChannel } from '../replay/request-replay';
import { readRetentionMark } from '../retention/retention-mark';
import { consumerLockName } from './advisory-lock';
import { AnnouncedRecords } from './announced-records';
import { Lanes } from './lanes';
import { LogFollower, type StepResult } from './log-follower';
import { LogReader, type LogRecord } from './log-reader';
import { readOffset } from './offsets';
import { ProgressSaver } from './progress-saver';

export interface EmbeddedTransportOptions {
  group: string;
  topics: readonly string[];
  databaseUrl: string;
  retry: RetryPolicy;
  pollIntervalMs: number;
  batchSize: number;
  /** Records of different keys handled at once (one key stays in order). */
  lanes: number;
}

/** The stream name of the embedded log in replay requests. */
export const EMBEDDED_STREAM = 'log';

const DEAD_LETTER = sql<never, [string, string, string, string, string, string, number]>(
  `INSERT INTO dead_letters (consumer_group, topic, event_id, position, message, reason, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (consumer_group, event_id) DO UPDATE
         SET reason = EXCLUDED.reason, attempts = EXCLUDED.attempts, created_at = now()`,
);

/**
 * Consumes the outbox table as the log. One process per group consumes (advisory lock); records are read in
 * position order and handled in lanes by key, so messages of one key keep their order while other keys go on.
 * The offset saved is the contiguous prefix of finished records (at least once).
 */
export class EmbeddedTransport extends Server implements CustomTransportStrategy {
  protected override readonly logger: Logger;
  private readonly pool: Pool;
  private readonly topics: Set<string>;
  private readonly follower: LogFollower;
  private reader: LogReader | undefined;
  private lanes: Lanes | undefined;
  /** The last position read (handed to the lanes), and the offset this leadership started from. */
  private readThrough = 0n;
  private saved = 0n;
  private replay: ReplayWindow | undefined;
  private progress: ProgressSaver | undefined;
  private readonly stopping = new AbortController();
  private readonly announced = new AnnouncedRecords();
  /** A replay was requested while this consumer leads (or it just became the leader): look for it at the next step. */
  private replayRequested = false;

  constructor(private readonly options: EmbeddedTransportOptions) {
    super();
    this.logger = new Logger(`EmbeddedTransport:${options.group}`);
    this.topics = new Set(options.topics);
    // A connection that drops must not crash the process; the follower reconnects.
    this.pool = createPool({ connectionString: options.databaseUrl, max: 3, application_name: `consumer:${options.group}` }, (error) =>
      this.logger.warn(`database connection lost: ${error.message}`),
    );
    this.follower = new LogFollower({
      pool: this.pool,
      lockName: consumerLockName(options.group),
      topics: options.topics,
      channels: [replayChannel(options.group)],
      onNotification: (payload, channel) => (channel === replayChannel(options.group) ? (this.replayRequested = true) : this.announced.offer(payload)),
      pollIntervalMs: options.pollIntervalMs,
      lead: () => this.lead(),
      step: () => this.step(),
      resign: () => this.resign(),
      onError: (error) => this.reportStop(error),
    });
  }

  listen(callback: () => void): void {
    this.follower.start();
    callback();
  }

  async close(): Promise<void> {
    // A record waiting out an outage is given up unfinished (redelivered later), so stopping does not wait for it.
    this.stopping.abort();
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
    // Replays requested while no consumer led: this one applies them first.
    this.replayRequested = true;
    await this.resumeFromOffset();
    this.logger.log(`consuming ${[...this.topics].join(', ')} from position ${this.saved}`);
    await this.warnOfPrunedEvents();
  }

  /** Reading state from the saved offset: at leadership, and after a replay moved the offset. */
  private async resumeFromOffset(): Promise<void> {
    this.announced.clear();
    this.reader = new LogReader(this.pool, this.options.batchSize, this.options.topics);
    this.saved = this.readThrough = await readOffset(this.pool, this.options.group);
    this.replay = await ReplayWindow.load(this.pool, this.options.group);
    const lanes = (this.lanes = new Lanes(this.options.lanes, (record) => this.handle(record), this.saved));
    this.progress = new ProgressSaver(
      this.pool,
      this.options.group,
      this.saved,
      () => lanes.doneThrough,
      (error) => this.logger.warn(`offset not saved yet: ${describe(error)}`),
    );
  }

  /**
   * Applies the replays requested while this consumer runs (the CLI cannot move the offset of a group whose lock is
   * held): every record handed to the lanes is finished and the offset saved first, so the replay's recorded position
   * is exactly where the group got; then reading starts again from the moved offset.
   */
  private async applyRequestedReplays(): Promise<void> {
    this.replayRequested = false;
    await this.lanes!.settled();
    if (this.lanes!.failure) throw this.lanes!.failure.error;
    await this.progress!.flush();
    const client = await this.pool.connect();
    let applied: number;
    try {
      applied = await applyPendingReplays(client, this.options.group, (line) => this.logger.log(line));
    } finally {
      client.release();
    }
    if (applied > 0) await this.resumeFromOffset();
  }

  /**
   * A step that failed stops the consumer until the follower restarts it. The database away (stopping, restarting,
   * unreachable: what a Ctrl-C of `npm start` or a failover looks like) is waited out, so it is a warning; anything
   * else is an error.
   */
  private reportStop(error: unknown): void {
    const message = `consumer stopped, restarting: ${error instanceof Error ? error.message : String(error)}`;
    if (isTransient(error)) this.logger.warn(message);
    else this.logger.error(message);
  }

  /** A group stopped for longer than the retention no longer held events back: say that it missed some. */
  private async warnOfPrunedEvents(): Promise<void> {
    const pruned = await readRetentionMark(this.pool);
    if (pruned && this.saved > 0n && this.saved < pruned.position) {
      this.logger.warn(`events after position ${this.saved} up to ${pruned.position} may have been deleted by outbox retention before this group read them`);
    }
  }

  private async step(): Promise<StepResult> {
    if (this.replayRequested) await this.applyRequestedReplays();
    const lanes = this.lanes!;
    if (lanes.failure) throw lanes.failure.error;
    // Reads ahead while lanes work, up to a batch beyond what is finished.
    if (lanes.backlog >= this.options.batchSize) {
      await lanes.changed();
      this.progress!.offer();
      return 'busy';
    }
    const announced = this.announced.take(this.readThrough);
    if (announced.length > 0) {
      this.hand(announced);
      // The next rows were all announced: nothing to read until the next notification (or the safety poll).
      if (!this.announced.mustRead) return 'idle';
    }
    this.announced.reading();
    const { records, waiting } = await this.reader!.read(this.readThrough);
    this.hand(records);
    // A short batch read all there was: the next read waits for a notification.
    if (records.length > 0) return waiting ? 'gap' : records.length < this.options.batchSize ? 'idle' : 'busy';
    return waiting ? 'gap' : 'idle';
  }

  /** Hands the next records of the log, in order, to the lanes. */
  private hand(records: readonly LogRecord[]): void {
    for (const record of records) this.lanes!.add(record, this.topics.has(record.topic));
    const last = records[records.length - 1];
    if (last) this.readThrough = last.position;
    // After handing the records over, so saving is off the path from commit to handler.
    this.progress!.offer();
  }

  /** Leadership ends: let the records under way finish, then save how far the group got. */
  private async resign(): Promise<void> {
    await this.lanes?.settled();
    await this.progress?.flush().catch((error: unknown) => this.logger.warn(`offset not saved, will be redelivered: ${describe(error)}`));
  }

  private async handle(record: LogRecord): Promise<void> {
    const verdict = this.replay!.verdict(EMBEDDED_STREAM, record.position, record.createdAt);
    if (verdict.kind === 'skip') return;
    const outcome = await deliver(
      { server: this, retry: this.options.retry, logger: this.logger, stopping: this.stopping.signal },
      record.envelope,
      (attempt) => new EventContext(this.options.group, record.topic, `log:${record.position}`, attempt, verdict.redelivery),
    );
    if (outcome.kind === 'dead') await this.deadLetter(record, outcome);
  }

  private async deadLetter(record: LogRecord, outcome: Extract<Delivery, { kind: 'dead' }>): Promise<void> {
    this.logger.error(`${record.type} ${record.eventId} dead-lettered after ${outcome.attempts} attempt(s): ${outcome.reason}`);
    await query(this.pool, DEAD_LETTER, [
      this.options.group,
      record.topic,
      record.eventId,
      record.position.toString(),
      JSON.stringify(record.envelope),
      outcome.reason,
      outcome.attempts,
    ]);
  }
}
