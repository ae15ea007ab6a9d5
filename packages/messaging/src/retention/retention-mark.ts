import { query, sql, type Queryable } from '@storage/persistence';

/** The key of the one row of `outbox_retention`. */
export const RETENTION_MARK = 'outbox';

/** What retention has deleted so far: everything it removed lies at or below these. */
export interface RetentionMark {
  /** The highest outbox position deleted: a group whose position is below it missed events. */
  position: bigint;
  /** The earliest `--from` a replay is complete from: just after the latest commit time deleted. */
  replayableFrom: Date;
}

const MARK = sql<{ position: string; replayable_from: Date }, [string]>(
  `SELECT pruned_through_position::text AS position,
            date_trunc('milliseconds', pruned_through_time) + interval '1 millisecond' AS replayable_from
       FROM outbox_retention WHERE name = $1`,
);

export async function readRetentionMark(db: Queryable): Promise<RetentionMark | undefined> {
  const [row] = await query(db, MARK, [RETENTION_MARK]);
  return row && { position: BigInt(row.position), replayableFrom: row.replayable_from };
}
