import { Pool, type PoolConfig } from 'pg';

/**
 * How long a pool keeps a connection nobody uses. pg's default (10 s) is shorter than the gaps between an idle
 * system's polls, so each poll paid a new backend (a fork, authentication, cold catalog caches) on both sides; a
 * pool now keeps its connections through such gaps and gives back the ones a load left over after some minutes.
 */
export const POOL_IDLE_TIMEOUT_MS = 300_000;

/**
 * The one way to build a raw pg pool: none of its connections can crash the process when PostgreSQL goes
 * away (restart, crash, pg_terminate_backend). pg emits 'error' on a client whose connection ends, and an
 * 'error' event nobody listens to is thrown. pg-pool listens on idle clients (and re-emits here, so `onError`
 * reports it) but not on checked-out ones: a transaction, or a session holding an advisory lock or LISTEN.
 *
 * Its `end()` resolves once every connection is closed. pg-pool's resolves as soon as it has asked them to close: a
 * process that stops its database right after (a service run alone on the embedded one) would have the server end
 * connections still closing, each reported as lost.
 */
export function createPool(config: PoolConfig, onError: (error: Error) => void): Pool {
  return new ClosingPool(config, onError);
}

class ClosingPool extends Pool {
  private readonly open = new Set<Promise<void>>();

  constructor(config: PoolConfig, onError: (error: Error) => void) {
    super({ idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS, ...config });
    this.on('error', onError);
    this.on('connect', (client) => {
      // A checked-out client's caller sees the loss anyway: its query in flight, or its next one, fails.
      client.on('error', () => undefined);
      const closed: Promise<void> = new Promise((resolve) => client.once('end', () => resolve(void this.open.delete(closed))));
      this.open.add(closed);
    });
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    const ended = super
      .end()
      .then(() => Promise.all(this.open))
      .then(() => undefined);
    if (!callback) return ended;
    void ended.then(callback, callback);
  }
}
