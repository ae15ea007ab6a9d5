import { query, sql, type Queryable } from '@storage/persistence';

const WAITING_FOR_LOCKS = sql<{ waiting: number }>(
  `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
);

/** How many sessions of the database `db` is connected to wait for a lock: how a test knows an interleaving it forces has come. */
export async function sessionsWaitingForLocks(db: Queryable): Promise<number> {
  const [{ waiting }] = await query(db, WAITING_FOR_LOCKS);
  return waiting;
}
