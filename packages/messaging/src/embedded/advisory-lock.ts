import { query, sql, type Queryable } from '@storage/persistence';

/** Namespace of this package's advisory locks, so they cannot collide with another package's. */
const LOCK_SPACE = 7301;

const TRY_LOCK = sql<{ locked: boolean }, [number, string]>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked');
const UNLOCK = sql<{ pg_advisory_unlock: boolean }, [number, string]>('SELECT pg_advisory_unlock($1, hashtext($2))');
const TRY_XACT_LOCK = sql<{ locked: boolean }, [number, string]>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked');
const XACT_LOCK = sql<{ pg_advisory_xact_lock: string }, [number, string]>('SELECT pg_advisory_xact_lock($1, hashtext($2))');

/** Work that must run once across replicas (a group's consumer, a service's relay) holds this session lock. */
export async function tryAdvisoryLock(client: Queryable, name: string): Promise<boolean> {
  const [row] = await query(client, TRY_LOCK, [LOCK_SPACE, name]);
  return row?.locked === true;
}

export async function advisoryUnlock(client: Queryable, name: string): Promise<void> {
  await query(client, UNLOCK, [LOCK_SPACE, name]);
}

/** Transaction-level: held until COMMIT or ROLLBACK; false when another session holds it. */
export async function tryAdvisoryXactLock(client: Queryable, name: string): Promise<boolean> {
  const [row] = await query(client, TRY_XACT_LOCK, [LOCK_SPACE, name]);
  return row?.locked === true;
}

/** Transaction-level, waiting for the holder to finish. */
export async function advisoryXactLock(client: Queryable, name: string): Promise<void> {
  await query(client, XACT_LOCK, [LOCK_SPACE, name]);
}

export const consumerLockName = (group: string): string => `consumer:${group}`;
/** Names of relay positions in consumer_offsets, which are not consumer groups. */
export const RELAY_PREFIX = 'relay:';
/**
 * A topic's relay's lock, and the name of its position: one relay per topic, run by whichever app takes the lock,
 * publishes every app's rows of the topic, so a rental's events reach Kafka in commit order whichever apps wrote them.
 */
export const relayName = (topic: string): string => `${RELAY_PREFIX}${topic}`;
/** Held by a retention batch while it deletes, and by a replay while it moves a group back. */
export const RETENTION_LOCK = 'outbox-retention';
