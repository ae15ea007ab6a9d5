import type { PoolClient } from 'pg';

/** Namespace of this package's advisory locks, so they cannot collide with another package's. */
const LOCK_SPACE = 7301;

/** Work that must run once across replicas (a group's consumer, a service's relay) holds this session lock. */
export async function tryAdvisoryLock(client: Pick<PoolClient, 'query'>, name: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_SPACE, name]);
  return rows[0]?.locked === true;
}

export async function advisoryUnlock(client: Pick<PoolClient, 'query'>, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, name]);
}

/** Transaction-level: held until COMMIT or ROLLBACK; false when another session holds it. */
export async function tryAdvisoryXactLock(client: Pick<PoolClient, 'query'>, name: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked', [LOCK_SPACE, name]);
  return rows[0]?.locked === true;
}

/** Transaction-level, waiting for the holder to finish. */
export async function advisoryXactLock(client: Pick<PoolClient, 'query'>, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, name]);
}

export const consumerLockName = (group: string): string => `consumer:${group}`;
/** The relay's lock, and the name of its position in consumer_offsets. */
export const RELAY_PREFIX = 'relay:';
export const relayLockName = (service: string): string => `${RELAY_PREFIX}${service}`;
/** Held by a retention batch while it deletes, and by a replay while it moves a group back. */
export const RETENTION_LOCK = 'outbox-retention';
