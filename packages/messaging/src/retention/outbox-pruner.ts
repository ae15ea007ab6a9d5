import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { createPool, query, sql } from '@storage/persistence';
import { describe } from '../consumer/deliver';
import { pruneBatch, PRUNE_START, type DeliveryMode } from './prune-batch';

export interface OutboxPrunerOptions {
  /** The service running it, for its logs and connection name. */
  service: string;
  databaseUrl: string;
  /** Delivered events committed more than this many days ago are deleted (OUTBOX_RETENTION_DAYS). */
  retentionDays: number;
  /** What "delivered" means: published by the relay (Kafka) or read by the active consumer groups (embedded). */
  mode: DeliveryMode;
  /** Rows looked at per DELETE, each its own transaction. */
  batchSize: number;
  /** Time between passes; the first runs at start. */
  intervalMs: number;
}

/** What one pass did. */
export interface PruneSummary {
  /** Events committed before this were eligible (the database's now() minus the retention). */
  cutoff: string;
  deleted: number;
  /** Events older than the cutoff kept because they are not delivered yet. */
  kept: number;
  batches: number;
  /** The pass stopped because another replica was pruning. */
  yielded: boolean;
}

/** A progress line every this many batches, for a long first pass over a big table. */
const PROGRESS_EVERY_BATCHES = 20;

const CUTOFF = sql<{ cutoff: string }, [number]>('SELECT (now() - make_interval(days => $1))::text AS cutoff');

/**
 * Outbox retention, like Kafka's topic retention: deletes events older than `retentionDays`, in batches of
 * `batchSize` walked in commit-time order, never one that is not delivered yet. Replicas share the work by
 * a per-batch advisory lock: a pass that finds it taken ends, as the other replica is pruning.
 */
export class OutboxPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly pool: Pool;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: OutboxPrunerOptions) {
    refuseBadOptions(options);
    this.logger = new Logger(`OutboxRetention:${options.service}`);
    this.pool = createPool({ connectionString: options.databaseUrl, max: 1, application_name: `outbox-retention:${options.service}` }, (error) =>
      this.logger.warn(`database connection lost: ${error.message}`),
    );
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.timer = setInterval(() => this.runPass(), this.options.intervalMs);
    this.timer.unref();
    this.runPass();
  }

  /** Ends the timer, lets the batch under way commit, and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pass;
    await this.pool.end();
  }

  /** One pass: every delivered event older than the retention, batch by batch, until none is left or stop. */
  async prune(): Promise<PruneSummary> {
    const client = await this.pool.connect();
    try {
      const [{ cutoff }] = await query(client, CUTOFF, [this.options.retentionDays]);
      const summary: PruneSummary = { cutoff, deleted: 0, kept: 0, batches: 0, yielded: false };
      let after = PRUNE_START;
      while (!this.stopped) {
        const batch = await pruneBatch(client, { mode: this.options.mode, cutoff: summary.cutoff, after, size: this.options.batchSize });
        if (!batch) {
          summary.yielded = true;
          break;
        }
        summary.batches++;
        summary.deleted += batch.deleted;
        summary.kept += batch.scanned - batch.deleted;
        if (batch.scanned < this.options.batchSize) break;
        if (summary.batches % PROGRESS_EVERY_BATCHES === 0) this.logger.log(`pruning: ${summary.deleted} event(s) deleted so far`);
        after = batch.next;
      }
      this.report(summary);
      return summary;
    } finally {
      client.release();
    }
  }

  private runPass(): void {
    if (this.pass || this.stopped) return;
    this.pass = this.prune()
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn(`pruning failed, will retry at the next pass: ${describe(error)}`),
      )
      .finally(() => (this.pass = undefined));
  }

  private report(summary: PruneSummary): void {
    if (summary.deleted === 0 && summary.kept === 0) return;
    const kept = summary.kept > 0 ? `; ${summary.kept} older event(s) kept, not delivered yet` : '';
    this.logger.log(`pruned ${summary.deleted} event(s) committed before ${summary.cutoff} in ${summary.batches} batch(es)${kept}`);
  }
}

function refuseBadOptions({ retentionDays, batchSize, intervalMs }: OutboxPrunerOptions): void {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) {
    throw new Error(`OutboxPruner: retentionDays must be a whole number of days, at least 1 (retention off is no pruner), got ${retentionDays}`);
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`OutboxPruner: batchSize must be a whole number, at least 1, got ${batchSize}`);
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`OutboxPruner: intervalMs must be a positive number, got ${intervalMs}`);
}
