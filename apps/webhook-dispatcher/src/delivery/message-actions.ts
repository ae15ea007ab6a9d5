import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';

const RESEND = sql<{ id: string }, [string, string, Date]>(
  `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = $3
       WHERE id = $1 AND portfolio = $2 RETURNING id`,
);
const RECOVER_FAILED = sql<{ id: string }, [string, string, Date, Date]>(
  `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = $4
       WHERE endpoint_id = $1 AND portfolio = $2 AND status = 'failed' AND created_at >= $3 RETURNING id`,
);

/**
 * Portal and command actions on the queue. Both put messages back as due now with a fresh retry schedule,
 * keeping their ids, so receivers see the same hook-id again. Scoped by portfolio so a link reaches only its own.
 */
export async function resendMessage(manager: EntityManager, portfolio: string, messageId: string, now: Date): Promise<boolean> {
  const rows = await query(manager, RESEND, [messageId, portfolio, now]);
  return rows.length > 0;
}

/** Puts every failed message of the endpoint created since `since` back in the queue; returns how many. */
export async function recoverFailed(manager: EntityManager, portfolio: string, endpointId: string, since: Date, now: Date): Promise<number> {
  const rows = await query(manager, RECOVER_FAILED, [endpointId, portfolio, since, now]);
  return rows.length;
}
