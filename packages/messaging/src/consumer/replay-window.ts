import type { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import type { Redelivery } from './event-context';

/** How a message is to be handled in light of the group's last replay. */
export type ReplayVerdict = { kind: 'deliver'; redelivery: Redelivery | undefined } | { kind: 'skip' };

interface ReplayRow {
  id: string;
  to_time: Date | null;
  redeliver: boolean;
  consumed_before: Record<string, string>;
}

const LATEST_REPLAY = sql<ReplayRow, [string]>(
  `SELECT id::text, to_time, redeliver, consumed_before FROM replay_requests WHERE consumer_group = $1 AND consumed_before <> '{}'::jsonb ORDER BY id DESC LIMIT 1`,
);

/**
 * The group's most recent replay. A message the group had handled before it (below `consumedBefore`) is
 * redelivered if it lies in the window, and skipped if after `--to`; later messages are unaffected.
 */
export class ReplayWindow {
  private constructor(private readonly request: ReplayRow | undefined) {}

  static async load(pool: Pool, group: string): Promise<ReplayWindow> {
    const [request] = await query(pool, LATEST_REPLAY, [group]);
    return new ReplayWindow(request);
  }

  verdict(stream: string, position: bigint, time: Date): ReplayVerdict {
    const before = this.request?.consumed_before[stream];
    if (!this.request || before === undefined || position >= BigInt(before)) return { kind: 'deliver', redelivery: undefined };
    if (this.request.to_time && time > this.request.to_time) return { kind: 'skip' };
    return { kind: 'deliver', redelivery: this.request.redeliver ? { replayRequestId: this.request.id } : undefined };
  }
}
