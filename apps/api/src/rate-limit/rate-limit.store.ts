import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import type { RateLimitPolicy } from './rate-limit.config';

/** What one check gave: `granted` requests (0: none), and how long until the bucket has room for one more. */
export interface Grant {
  granted: number;
  retryAfterMs: number;
}

/*
 * GCRA (the generic cell rate algorithm) rather than a fixed or sliding window: its whole state is one number per
 * bucket, the theoretical arrival time (tat), so a check is one row updated in place, with no counters to roll over
 * and no burst at a window's edge (a fixed window lets 2× the limit through across one). A request fits when the
 * backlog it would leave, tat - now, stays within `burst` intervals; granting n moves tat n intervals on.
 * `room` is how many fit now. The database clock decides, so replicas' clocks do not matter.
 */
const NOW = 'EXCLUDED.taken_at_ms';
const ROOM = `floor($4::int - (greatest(r.tat_ms, ${NOW}) - ${NOW}) / $3::float8 + 1e-9)`;
const GRANTED = `greatest(0, least($2::int, ${ROOM}))::int`;

const TAKE = sql<{ granted: number; backlog: number }, [string, number, number, number]>(
  `
  INSERT INTO api_rate_limits AS r (bucket, taken_at_ms, granted, tat_ms)
  SELECT $1, n.now, least($2::int, $4::int), n.now + least($2::int, $4::int) * $3::float8
    FROM (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now) n
  ON CONFLICT (bucket) DO UPDATE SET
    taken_at_ms = ${NOW},
    granted = ${GRANTED},
    tat_ms = greatest(r.tat_ms, ${NOW}) + ${GRANTED} * $3::float8
  RETURNING granted, tat_ms - taken_at_ms AS backlog`,
  { prepared: 'api_rate_limit_take' },
);

/** Takes up to `wanted` requests from the bucket, atomically, in one round trip. */
export async function takeFromBucket(db: DataSource, bucket: string, wanted: number, policy: RateLimitPolicy): Promise<Grant> {
  const rows = await query(db, TAKE, [bucket, wanted, policy.intervalMs, policy.burst]);
  const { granted, backlog } = rows[0];
  // The next request fits once the backlog is down to burst - 1 intervals.
  return { granted, retryAfterMs: Math.max(0, backlog - (policy.burst - 1) * policy.intervalMs) };
}

/** Forgets full buckets (tat in the past): an absent row and a full bucket are the same state. */
export async function pruneBuckets(db: DataSource): Promise<void> {
  await query(db, sql('DELETE FROM api_rate_limits WHERE tat_ms < extract(epoch FROM clock_timestamp()) * 1000'));
}
