import type { EntityManager } from 'typeorm';
import type { EventFilters, PublicEventType } from '@storage/domain';

/** What fan-out needs of an event: who it belongs to, what it is, what it is filtered on, and its payload. */
export interface FanOutEvent {
  eventId: string;
  type: PublicEventType;
  portfolio: string;
  filters: EventFilters;
  payload: unknown;
}

export interface FanOutOptions {
  now: Date;
  /** Send again to endpoints that already have this event (replay with --redeliver); otherwise a replay is a no-op. */
  redeliver?: boolean;
  /** Skip the facility, unit type and amenity filters (test events are for checking the endpoint itself). */
  ignoreFilters?: boolean;
}

/** The body every endpoint receives: `{"data": [payload]}` (spec 6.2). */
export const deliveryBody = (payload: unknown): string => JSON.stringify({ data: [payload] });

/**
 * Creates one message per enabled endpoint of the portfolio that subscribes to the event type and whose
 * filters match (an empty filter matches everything; amenities match when any is shared). Runs in the
 * caller's transaction so it commits with the consumer's processed-event mark. Returns the messages created.
 */
export async function fanOut(manager: EntityManager, event: FanOutEvent, options: FanOutOptions): Promise<number> {
  const onConflict = options.redeliver
    ? `DO UPDATE SET status = 'pending', attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at`
    : 'DO NOTHING';
  const rows: unknown[] = await manager.query(
    `INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, next_attempt_at, created_at)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, e.portfolio, $2, $3, $4, 'pending', 0, $5, $5
     FROM webhook_endpoints e
     WHERE e.portfolio = $1 AND e.disabled_at IS NULL AND $3 = ANY(e.event_types)
       AND ($9 OR (
         (cardinality(e.facility_uuids) = 0 OR $6::uuid = ANY(e.facility_uuids))
         AND (cardinality(e.unit_types) = 0 OR $7::uuid = ANY(e.unit_types))
         AND (cardinality(e.amenity_uuids) = 0 OR e.amenity_uuids && $8::uuid[])))
     ON CONFLICT (endpoint_id, event_id) ${onConflict}
     RETURNING id`,
    [
      event.portfolio,
      event.eventId,
      event.type,
      deliveryBody(event.payload),
      options.now,
      event.filters.facilityUuid,
      event.filters.unitType,
      event.filters.amenityUuids,
      options.ignoreFilters ?? false,
    ],
  );
  return rows.length;
}
