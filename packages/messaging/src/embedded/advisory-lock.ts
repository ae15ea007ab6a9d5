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

export const consumerLockName = (group: string): string => `consumer:${group}`;
export const relayLockName = (service: string): string => `relay:${service}`;
