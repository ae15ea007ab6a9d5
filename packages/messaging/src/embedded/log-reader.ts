import type { Pool } from 'pg';

/** An outbox row as read from the log. `position` is the outbox id. */
export interface LogRecord {
  position: bigint;
  topic: string;
  key: string | null;
  type: string;
  eventId: string;
  source: string;
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
  snapshot_xmax: string;
}

/**
 * Reads the outbox in position order without skipping a row that commits late.
 *
 * Ids are taken at insert time but become visible at commit, so id 7 may be visible while id 6 is still in
 * flight. A reader therefore stops at a gap. The gap's owner took its id before the rows after it were
 * committed, so it was running when the reading snapshot was taken; once every transaction of that snapshot
 * has ended (the current xmin reaches its xmax), a gap still empty was rolled back and is passed.
 * OutboxPublisher takes its transaction id before the outbox id, which makes "was running" exact.
 */
export class LogReader {
  /** A gap seen under a snapshot not yet fully ended: the highest id read then, and that snapshot's xmax. */
  private pendingGap: { below: bigint; xmax: bigint } | undefined;
  /** Every id at or below this is settled: committed and visible, or never will be. */
  private settledThrough = 0n;

  constructor(
    private readonly pool: Pool,
    private readonly batchSize: number,
  ) {}

  /** The next settled records after `after`, in order; `waiting` when a gap holds the rest back. */
  async read(after: bigint): Promise<{ records: LogRecord[]; waiting: boolean }> {
    const { rows } = await this.pool.query<Row>(
      `SELECT o.id::text AS position, o.topic, o.key, o.type, o.event_id, o.source, o.envelope, o.created_at,
              pg_snapshot_xmin(pg_current_snapshot())::text AS snapshot_xmin,
              pg_snapshot_xmax(pg_current_snapshot())::text AS snapshot_xmax
         FROM outbox o WHERE o.id > $1 ORDER BY o.id LIMIT $2`,
      [after.toString(), this.batchSize],
    );
    const first = rows[0];
    if (!first) return { records: [], waiting: false };
    if (this.pendingGap && BigInt(first.snapshot_xmin) >= this.pendingGap.xmax) {
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
      this.pendingGap = { below: BigInt(rows[rows.length - 1].position), xmax: BigInt(first.snapshot_xmax) };
    }
    return { records, waiting };
  }
}
