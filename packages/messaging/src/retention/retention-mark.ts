import type { Pool, PoolClient } from 'pg';

/** The key of the one row of `outbox_retention`. */
export const RETENTION_MARK = 'outbox';

/** What retention has deleted so far: everything it removed lies at or below these. */
export interface RetentionMark {
  /** The highest outbox position deleted: a group whose position is below it missed events. */
  position: bigint;
  /** The earliest `--from` a replay is complete from: just after the latest commit time deleted. */
  replayableFrom: Date;
}

export async function readRetentionMark(db: Pick<Pool | PoolClient, 'query'>): Promise<RetentionMark | undefined> {
  const { rows } = await db.query<{ position: string; replayable_from: Date }>(
    `SELECT pruned_through_position::text AS position,
            date_trunc('milliseconds', pruned_through_time) + interval '1 millisecond' AS replayable_from
       FROM outbox_retention WHERE name = $1`,
    [RETENTION_MARK],
  );
  const row = rows[0];
  return row && { position: BigInt(row.position), replayableFrom: row.replayable_from };
}
