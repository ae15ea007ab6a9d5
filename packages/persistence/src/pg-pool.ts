import { Pool, type PoolConfig } from 'pg';

/**
 * The one way to build a raw pg pool: none of its connections can crash the process when PostgreSQL goes
 * away (restart, crash, pg_terminate_backend). pg emits 'error' on a client whose connection ends, and an
 * 'error' event nobody listens to is thrown. pg-pool listens on idle clients (and re-emits here, so `onError`
 * reports it) but not on checked-out ones: a transaction, or a session holding an advisory lock or LISTEN.
 */
export function createPool(config: PoolConfig, onError: (error: Error) => void): Pool {
  const pool = new Pool(config);
  pool.on('error', onError);
  // A checked-out client's caller sees the loss anyway: its query in flight, or its next one, fails.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
