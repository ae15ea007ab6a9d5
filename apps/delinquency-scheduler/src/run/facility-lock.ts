import type { DataSource, QueryRunner } from 'typeorm';
import { query, sql } from '@storage/persistence';

/** Namespace of the scheduler's advisory locks. */
const LOCK_SPACE = 7302;

const LOCK = sql<unknown, [lockSpace: number, facilityUuid: string]>('SELECT pg_advisory_lock($1, hashtext($2))');
const TRY_LOCK = sql<{ locked: boolean }, [lockSpace: number, facilityUuid: string]>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked');
const UNLOCK = sql<unknown, [lockSpace: number, facilityUuid: string]>('SELECT pg_advisory_unlock($1, hashtext($2))');

/**
 * A facility's runs happen one at a time across replicas, so its days run in order: the lock is a session
 * lock on a connection of its own, held while the facility's dates run, released with the connection.
 */
export class FacilityLock {
  private constructor(
    private readonly runner: QueryRunner,
    private readonly facilityUuid: string,
  ) {}

  /** Waits for the lock (`wait`) or gives up at once, returning null, when another run holds it. */
  static async acquire(dataSource: DataSource, facilityUuid: string, wait: boolean): Promise<FacilityLock | null> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      if (wait) {
        await query(runner, LOCK, [LOCK_SPACE, facilityUuid]);
      } else {
        const rows = await query(runner, TRY_LOCK, [LOCK_SPACE, facilityUuid]);
        if (rows[0]?.locked !== true) {
          await runner.release();
          return null;
        }
      }
      return new FacilityLock(runner, facilityUuid);
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  async release(): Promise<void> {
    try {
      await query(this.runner, UNLOCK, [LOCK_SPACE, this.facilityUuid]);
    } finally {
      await this.runner.release();
    }
  }
}
