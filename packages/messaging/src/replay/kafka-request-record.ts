import { query, sql, type Queryable } from '@storage/persistence';

/**
 * The key a Kafka replay requested while its group ran keeps in `consumed_before` until every partition of the
 * group's topics has its position there: each member records the partitions it holds as it applies the request.
 * ReplayWindow looks positions up by stream ("topic:partition"; a topic name has no ':'), so it never reads this key.
 * PENDING spells it too.
 */
const UNFINISHED = 'unfinished';

export interface PendingKafkaReplay {
  id: string;
  from: Date;
  consumedBefore: Record<string, string>;
}

const PENDING = sql<PendingKafkaReplay, [string]>(
  `SELECT id::text, from_time AS "from", consumed_before AS "consumedBefore" FROM replay_requests
    WHERE consumer_group = $1 AND (consumed_before = '{}'::jsonb OR consumed_before ? 'unfinished') ORDER BY id`,
);
const LOCK_REQUEST = sql<{ consumedBefore: Record<string, string> }, [string]>(
  `SELECT consumed_before AS "consumedBefore" FROM replay_requests WHERE id = $1 FOR UPDATE`,
);
const WRITE_POSITIONS = sql<never, [string, string]>(`UPDATE replay_requests SET consumed_before = $2::jsonb WHERE id = $1`);
const DROP_REQUEST = sql<never, [string]>(`DELETE FROM replay_requests WHERE id = $1`);

/** The group's replays requested while it ran and not yet applied on every partition, oldest first. */
export function pendingKafkaReplays(db: Queryable, group: string): Promise<PendingKafkaReplay[]> {
  return query(db, PENDING, [group]);
}

/** The request's positions so far, its row locked until the caller's transaction ends (undefined: it is gone). */
export async function lockRequest(db: Queryable, id: string): Promise<Record<string, string> | undefined> {
  const [row] = await query(db, LOCK_REQUEST, [id]);
  return row?.consumedBefore;
}

/** Applied on every partition: some position recorded and none awaited. */
export const isFinished = (consumedBefore: Record<string, string>): boolean => Object.keys(consumedBefore).length > 0 && !(UNFINISHED in consumedBefore);

/** The streams of the request's positions (its marker aside). */
export const recordedStreams = (consumedBefore: Record<string, string>): string[] => Object.keys(consumedBefore).filter((key) => key !== UNFINISHED);

/**
 * Adds `reached` to the locked request's positions; it stays unfinished while a stream of `streams` (every
 * partition of the group's topics) has none. Empty when done (nothing was to replay anywhere), it is dropped.
 */
export async function recordPositions(
  db: Queryable,
  id: string,
  recorded: Record<string, string>,
  reached: Record<string, string>,
  streams: Iterable<string>,
): Promise<void> {
  const positions: Record<string, string> = { ...recorded, ...reached };
  delete positions[UNFINISHED];
  if ([...streams].some((stream) => !(stream in positions))) positions[UNFINISHED] = 'true';
  if (Object.keys(positions).length === 0) await query(db, DROP_REQUEST, [id]);
  else await query(db, WRITE_POSITIONS, [id, JSON.stringify(positions)]);
}
