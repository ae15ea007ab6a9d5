import type { EntityManager } from 'typeorm';
import { deliveryBody, type FanOutEvent } from './fan-out';

/** One event of a batch: the consumer group and key its processed-event mark is written under. */
export interface MarkedEvent {
  group: string;
  key: string;
  event: FanOutEvent;
}

/**
 * `fanOutOnce` for many events in one statement (atomic, one round trip): each event's processed-event mark
 * (the row `markProcessedSql` writes) and its messages to the matching endpoints, created only when the mark
 * is new. Returns per event, in order, the messages created, or undefined when it had been applied before.
 */
export async function fanOutManyOnce(db: Pick<EntityManager, 'query'>, events: readonly MarkedEvent[], now: Date): Promise<(number | undefined)[]> {
  const input = events.map(({ group, key, event }, n) => ({
    n,
    grp: group,
    key,
    portfolio: event.portfolio,
    event_id: event.eventId,
    type: event.type,
    body: deliveryBody(event.payload),
    facility: event.filters.facilityUuid,
    unit_type: event.filters.unitType,
    amenities: event.filters.amenityUuids,
  }));
  const rows: { applied: boolean; created: number }[] = await db.query(
    `WITH i AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS i(n int, grp text, key text, portfolio text, event_id text, type text, body text, facility uuid, unit_type uuid, amenities uuid[])),
     mark AS (
       INSERT INTO processed_events (consumer_group, event_id) SELECT grp, key FROM i
       ON CONFLICT DO NOTHING RETURNING consumer_group, event_id),
     created AS (
       INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, next_attempt_at, created_at)
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, e.portfolio, i.event_id, i.type, i.body, 'pending', 0, $2, $2
       FROM i
       JOIN mark ON mark.consumer_group = i.grp AND mark.event_id = i.key
       JOIN webhook_endpoints e ON e.portfolio = i.portfolio AND e.disabled_at IS NULL AND i.type = ANY(e.event_types)
         AND (cardinality(e.facility_uuids) = 0 OR i.facility = ANY(e.facility_uuids))
         AND (cardinality(e.unit_types) = 0 OR i.unit_type = ANY(e.unit_types))
         AND (cardinality(e.amenity_uuids) = 0 OR e.amenity_uuids && i.amenities)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING event_id)
     SELECT EXISTS (SELECT 1 FROM mark WHERE mark.consumer_group = i.grp AND mark.event_id = i.key) AS applied,
            (SELECT count(*)::int FROM created c WHERE c.event_id = i.event_id) AS created
     FROM i ORDER BY i.n`,
    [JSON.stringify(input), now],
  );
  return rows.map((row) => (row.applied ? row.created : undefined));
}
