import { fragment, type SqlFragment } from '@storage/persistence';

/**
 * `select` run after recording an event's time on the rental ($1 the rental, $2 the time), in one round trip: the
 * next event of the rental is later, so event ids never clash. What `select` reads is as of the statement's start,
 * which the stamp does not change (`last_event_at` is no part of an event's payload).
 */
export function withEventTimeStamp(select: string): SqlFragment {
  return fragment(`WITH stamp AS (UPDATE rental_records SET last_event_at = $2 WHERE uuid = $1)
${select}`);
}
