import type { PoolClient } from 'pg';
import { query, sql, type Sql } from '@storage/persistence';
import { RELAY_PREFIX, RETENTION_LOCK, tryAdvisoryXactLock } from '../embedded/advisory-lock';
import { BEGIN, COMMIT, ROLLBACK } from '../transaction-control';
import { savedOffset } from '../embedded/offsets';
import { RETENTION_MARK } from './retention-mark';

/** Kafka: the relay published the row (Kafka's own retention takes over). Embedded: the consumer groups read it. */
export type DeliveryMode = 'kafka' | 'embedded';

/** Where a pass has got to in (created_at, id) order; created_at as text, to keep its microseconds. */
export interface PruneCursor {
  time: string;
  id: string;
}

export const PRUNE_START: PruneCursor = { time: '-infinity', id: '0' };

export interface PruneBatch {
  /** Rows older than the cutoff looked at, deleted or kept. */
  scanned: number;
  deleted: number;
  /** Where the next batch starts. */
  next: PruneCursor;
}

/** Max bigint: no active group, nothing held back. */
const NO_GROUP_LIMIT = '9223372036854775807';

const DELIVERED: Record<DeliveryMode, string> = {
  // Its topic's relay has saved a position at or past the row: Kafka acknowledged it.
  kafka: `o.id <= ${savedOffset(`'${RELAY_PREFIX}' || o.topic`)}`,
  // Every group that saved its position since the cutoff (an active one) has read past the row.
  embedded: `o.id <= (SELECT coalesce(min(g.position), ${NO_GROUP_LIMIT}) FROM consumer_offsets g
                       WHERE g.consumer_group NOT LIKE '${RELAY_PREFIX}%' AND g.updated_at > $1::timestamptz)`,
};

/**
 * The next `$4` rows committed before the cutoff `$1`, after the cursor (`$2`, `$3`), walked through the
 * `outbox_created_at` index: the delivered ones are deleted by primary key and the mark moved, in one statement,
 * and the kept ones are passed for the rest of the pass instead of being looked at again by every batch.
 */
const pruneSql = (mode: DeliveryMode): string => `
WITH candidates AS (
  SELECT id, created_at FROM outbox
   WHERE created_at < $1::timestamptz AND created_at >= $2::timestamptz AND (created_at > $2::timestamptz OR id > $3::bigint)
   ORDER BY created_at, id
   LIMIT $4
), deleted AS (
  DELETE FROM outbox o WHERE o.id = ANY (ARRAY(SELECT id FROM candidates)) AND ${DELIVERED[mode]}
  RETURNING o.id, o.created_at
), mark AS (
  INSERT INTO outbox_retention (name, pruned_through_position, pruned_through_time)
  SELECT '${RETENTION_MARK}', max(id), max(created_at) FROM deleted HAVING count(*) > 0
  ON CONFLICT (name) DO UPDATE SET
    pruned_through_position = greatest(outbox_retention.pruned_through_position, EXCLUDED.pruned_through_position),
    pruned_through_time = greatest(outbox_retention.pruned_through_time, EXCLUDED.pruned_through_time),
    updated_at = now()
)
SELECT (SELECT count(*) FROM candidates)::int AS scanned, (SELECT count(*) FROM deleted)::int AS deleted,
       last.created_at::text AS last_time, last.id::text AS last_id
  FROM (SELECT created_at, id FROM candidates ORDER BY created_at DESC, id DESC LIMIT 1) AS last`;

interface PruneRow {
  scanned: number;
  deleted: number;
  last_time: string;
  last_id: string;
}
type PruneValues = [cutoff: string, afterTime: string, afterId: string, size: number];
/** Exported for the test of their plans. */
export const PRUNE: Record<DeliveryMode, Sql<PruneRow, PruneValues>> = { kafka: sql(pruneSql('kafka')), embedded: sql(pruneSql('embedded')) };

/**
 * One batch in its own transaction, under the retention lock (so a replay moving a group back waits for it).
 * Undefined when another session holds the lock: another replica is pruning.
 */
export async function pruneBatch(
  client: PoolClient,
  batch: { mode: DeliveryMode; cutoff: string; after: PruneCursor; size: number },
): Promise<PruneBatch | undefined> {
  await query(client, BEGIN);
  try {
    if (!(await tryAdvisoryXactLock(client, RETENTION_LOCK))) {
      await query(client, ROLLBACK);
      return undefined;
    }
    const [row] = await query(client, PRUNE[batch.mode], [batch.cutoff, batch.after.time, batch.after.id, batch.size]);
    await query(client, COMMIT);
    return row ? { scanned: row.scanned, deleted: row.deleted, next: { time: row.last_time, id: row.last_id } } : { scanned: 0, deleted: 0, next: batch.after };
  } catch (error) {
    await query(client, ROLLBACK).catch(() => undefined);
    throw error;
  }
}
