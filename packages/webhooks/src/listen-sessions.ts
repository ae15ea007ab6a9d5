import { query, sql, type Queryable } from '@storage/persistence';

/*
 * `webhooks listen` sessions on `webhook_endpoints`: each is an endpoint of its own (same filters, fan-out and retries
 * as a subscription) whose deliveries go down the listener's stream, held by one dispatcher replica (`listener`).
 */

/** A session as its stream needs it. */
export interface ListenSession {
  id: string;
  portfolio: string;
  /** Sealed for `id`, as subscriptions' secrets are. */
  sealedSecret: string;
  eventTypes: string[];
}

const SESSION = `id, portfolio, secret AS "sealedSecret", event_types AS "eventTypes"`;

const OPEN = sql<ListenSession, [string, string, string[], string, string, string, Date]>(
  `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, secret, listen_api_key, listener, listener_seen_at)
   VALUES ($1::uuid, $2, 'listen:' || $1::text, 'listen:' || $1::text, 'webhooks listen session', $3, $4, $5, $6, $7)
   RETURNING ${SESSION}`,
);
const ATTACH = sql<ListenSession, [string, string, string, string, Date]>(
  `UPDATE webhook_endpoints SET listener = $4, listener_seen_at = $5
   WHERE id = $1 AND portfolio = $2 AND listen_api_key = $3
   RETURNING ${SESSION}`,
);
const DETACH = sql<never, [string, string, Date]>('UPDATE webhook_endpoints SET listener = NULL, listener_seen_at = $3 WHERE id = $1 AND listener = $2');
const END = sql<never, [string, string]>('DELETE FROM webhook_endpoints WHERE id = $1 AND listener = $2 AND listen_api_key IS NOT NULL');
const VOUCH = sql<never, [string[], string, Date]>('UPDATE webhook_endpoints SET listener_seen_at = $3 WHERE id = ANY($1::uuid[]) AND listener = $2');
const SWEEP = sql<{ id: string }, [Date]>('DELETE FROM webhook_endpoints WHERE listen_api_key IS NOT NULL AND listener_seen_at < $1 RETURNING id');

/** A new session held by `listener`, bound to the key that asked for it. */
export async function openListenSession(
  db: Queryable,
  session: { id: string; portfolio: string; eventTypes: string[]; sealedSecret: string; apiKeyUuid: string },
  listener: string,
  now: Date,
): Promise<ListenSession> {
  const [opened] = await query(db, OPEN, [session.id, session.portfolio, session.eventTypes, session.sealedSecret, session.apiKeyUuid, listener, now]);
  return opened;
}

/** The session `id` of the key in the portfolio, now held by `listener` (a reconnect); null when it is gone. */
export async function attachListenSession(
  db: Queryable,
  id: string,
  owner: { portfolio: string; apiKeyUuid: string },
  listener: string,
  now: Date,
): Promise<ListenSession | null> {
  const [attached] = await query(db, ATTACH, [id, owner.portfolio, owner.apiKeyUuid, listener, now]);
  return attached ?? null;
}

/** The stream dropped (the listener killed, or its connection lost): the session's messages wait for a reconnect, until the session is swept. */
export async function detachListenSession(db: Queryable, id: string, listener: string, now: Date): Promise<void> {
  await query(db, DETACH, [id, listener, now]);
}

/** The listener closed its stream for good (Ctrl-C): the session goes at once, messages and all. */
export async function endListenSession(db: Queryable, id: string, listener: string): Promise<void> {
  await query(db, END, [id, listener]);
}

/** The replica `listener` still holds these sessions' streams. */
export async function vouchForListenSessions(db: Queryable, ids: string[], listener: string, now: Date): Promise<void> {
  if (ids.length > 0) await query(db, VOUCH, [ids, listener, now]);
}

/** Removes the sessions no replica vouched for since `unseenSince` (closed, or held by a replica that died), messages and all. */
export async function sweepListenSessions(db: Queryable, unseenSince: Date): Promise<string[]> {
  return (await query(db, SWEEP, [unseenSince])).map((row) => row.id);
}
