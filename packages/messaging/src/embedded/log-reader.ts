import type { Pool } from 'pg';
import { query, sql } from '@storage/persistence';

/** An outbox row as read from the log. `position` is the outbox id. */
export interface LogRecord {
  position: bigint;
  topic: string;
  key: string | null;
  type: string;
  eventId: string;
  source: string;
  /** Null for a row of a topic the reader was not asked for. */
  envelope: unknown;
  createdAt: Date;
}

interface Row {
  position: string;
  topic: string;
  key: string | null;
  type: string;
  event_id: string;
  source: string;
  envelope: unknown;
  created_at: Date;
  snapshot_xmin: string;
}

/** Prepared once per connection: it runs for every batch of the log. */
const LOG_READ = sql<Row, [after: string, batchSize: number, topics: readonly string[] | null]>(
  `SELECT o.id::text AS position, o.topic, o.key, o.type, o.event_id, o.source,
                    CASE WHEN $3::text[] IS NULL OR o.topic = ANY($3::text[]) THEN o.envelope END AS envelope, o.created_at,
                    pg_snapshot_xmin(pg_current_snapshot())::text AS snapshot_xmin
               FROM outbox o WHERE o.id > $1 ORDER BY o.id LIMIT $2`,
  { prepared: 'outbox_log_read' },
);
const FENCE = sql<{ fence: string }, []>('SELECT pg_current_xact_id()::text AS fence');

/**
 * Reads the outbox in position order without skipping a row that commits late.
 *
 * Positions are taken at insert time but become visible at commit, so position 7 may be visible while 6 is still
 * in flight. A reader therefore stops at a gap, and passes it only once the gap's owner has certainly ended; a gap
 * still empty then was rolled back.
 *
 * Why that is exact. Let a read see position P committed and a gap at N < P. The owner of N took N before P was
 * taken (the sequence is monotonic), P was committed before the read's snapshot, and every writer takes its
 * transaction id before its outbox positions (`outboxInsert`). So the owner's transaction id was assigned
 * before the read. Right after the read, the reader takes a fresh transaction id F (the fence): ids are assigned
 * in increasing order, so the owner's id is below F. A later snapshot whose xmin (oldest transaction still
 * running, cluster-wide) is at or above F proves that every transaction below F has ended, the owner among them:
 * from then on N is either visible or never will be, and every position up to P is settled.
 *
 * The snapshot's own xmax cannot serve as the fence: it is "latest completed transaction + 1", so a transaction
 * that took its id before the read but after the last commit (B took an id, then A; B committed) is at or above
 * it while still running, and its gap would be passed as a rollback.
 *
 * The fence costs one transaction id and one round trip per gap seen, none on a read without a gap.
 */
export class LogReader {
  /** A gap seen and not yet settled: the highest position read then, and the fence taken after that read. */
  private pendingGap: { below: bigint; fence: bigint } | undefined;
  /** Every id at or below this is settled: committed and visible, or never will be. */
  private settledThrough = 0n;

  /** `topics`: the topics whose envelopes are wanted (the others' rows come without, saving their transfer and parsing); all when omitted. */
  constructor(
    private readonly pool: Pool,
    private readonly batchSize: number,
    private readonly topics: readonly string[] | null = null,
  ) {}

  /** The next settled records after `after`, in order; `waiting` when a gap holds the rest back. */
  async read(after: bigint): Promise<{ records: LogRecord[]; waiting: boolean }> {
    const rows = await query(this.pool, LOG_READ, [after.toString(), this.batchSize, this.topics]);
    const first = rows[0];
    if (!first) return { records: [], waiting: false };
    if (this.pendingGap && BigInt(first.snapshot_xmin) >= this.pendingGap.fence) {
      if (this.pendingGap.below > this.settledThrough) this.settledThrough = this.pendingGap.below;
      this.pendingGap = undefined;
    }
    const records: LogRecord[] = [];
    let expected = after + 1n;
    for (const row of rows) {
      const position = BigInt(row.position);
      if (position !== expected && position > this.settledThrough) break;
      records.push({
        position,
        topic: row.topic,
        key: row.key,
        type: row.type,
        eventId: row.event_id,
        source: row.source,
        envelope: row.envelope,
        createdAt: row.created_at,
      });
      expected = position + 1n;
    }
    const waiting = records.length < rows.length;
    if (waiting && !this.pendingGap) {
      this.pendingGap = { below: BigInt(rows[rows.length - 1].position), fence: await this.takeFence() };
    }
    return { records, waiting };
  }

  /** A transaction id assigned after the read, so above the id of every transaction that owns a gap it saw. */
  private async takeFence(): Promise<bigint> {
    const [{ fence }] = await query(this.pool, FENCE);
    return BigInt(fence);
  }
}
