import { fragment, type SqlFragment } from '@storage/persistence';

/*
 * A rental's event times. Event ids carry the millisecond, so two events of a rental must never share it: each
 * is later than the rental's previous one (its watermark). There are two watermarks, for two writers that never
 * write each other's row: `rental_records.last_event_at` (lifecycle actions and rent changes, stamped by the
 * statements of this package) and `delinquencies.last_event_at` (the delinquency's transitions and auctions,
 * stamped by the delinquency's transition write, which another engineer's business-day driver batches). Both kinds
 * of writer hold the rental's lock, and their events are of different types, whose ids never clash: one function,
 * two watermarks, each its writer's.
 */

/** Times for a rental's next `count` events: from now, but always after its previous event, one millisecond apart. */
export function eventTimes(previous: Date | null, count: number, now: number = Date.now()): Date[] {
  const start = Math.max(now, (previous?.getTime() ?? 0) + 1);
  return Array.from({ length: count }, (_, index) => new Date(start + index));
}

/**
 * `select` run after recording an event's time on the rental ($1 the rental, $2 the time), in one round trip: the
 * next event of the rental is later, so event ids never clash. What `select` reads is as of the statement's start,
 * which the stamp does not change (`last_event_at` is no part of an event's payload).
 */
export function withEventTimeStamp(select: string): SqlFragment {
  return fragment(`WITH stamp AS (UPDATE rental_records SET last_event_at = $2 WHERE uuid = $1)
${select}`);
}
