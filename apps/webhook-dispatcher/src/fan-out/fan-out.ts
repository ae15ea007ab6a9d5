import { webhookDeliveryBody, type EventEnvelope, type EventFilters, type PublicEventType } from '@storage/domain';
import { processedMark } from '@storage/messaging';
import { query, sql, type Queryable } from '@storage/persistence';
import { endpointMatches } from './endpoint-match';

/**
 * What fan-out needs of an event: who it belongs to, what it is, what it is filtered on, its payload, and whether it
 * is operation 19's test message (the body's `test`).
 */
export interface FanOutEvent {
  eventId: string;
  type: PublicEventType;
  portfolio: string;
  filters: EventFilters;
  payload: unknown;
  test: boolean;
  /** The rental the event is about (its partition key): its messages to one endpoint keep their order. */
  orderingKey: string | null;
}

/** A lifecycle event from the broker: a real event (`test: false`). */
export const lifecycleFanOutEvent = ({ eventId, type, portfolio, filters, payload, key }: EventEnvelope<PublicEventType>): FanOutEvent => ({
  eventId,
  type,
  portfolio,
  filters,
  payload,
  test: false,
  orderingKey: key,
});

export interface FanOutOptions {
  now: Date;
  /** Send again to endpoints that already have this event (replay with --redeliver); otherwise a replay is a no-op. */
  redeliver?: boolean;
  /** Skip the facility, unit type and amenity filters (test events are for checking the endpoint itself). */
  ignoreFilters?: boolean;
  /** Only to this endpoint (the portal's "Send example"); otherwise to every one subscribed. */
  onlyEndpoint?: string;
}

/** What a receiver gets for the event: its payload in the delivery body, `test` telling a test message. */
export const deliveryBodyOf = (event: FanOutEvent): string => webhookDeliveryBody(event.payload, { test: event.test });

/** A new message's id, in SQL: `msg_` and a random uuid's hex, also the `hook-id` header its receiver sees. */
export const NEW_MESSAGE_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/** Who has applied the event: the consumer group and the key its processed-event mark is written under. */
export interface ProcessedMark {
  group: string;
  key: string;
}

/**
 * Creates one message per endpoint the event goes to (`endpointMatches`), in the caller's transaction. Returns the
 * messages created.
 */
export async function fanOut(db: Queryable, event: FanOutEvent, options: FanOutOptions): Promise<number> {
  const rows = await query(db, options.redeliver ? FAN_OUT.redeliver : FAN_OUT.once, params(event, options));
  return rows[0].created;
}

/**
 * `fanOut` and the consumer's processed-event mark in one statement (one round trip, atomic on its own):
 * messages are created only when the mark is new. Returns the messages created, or undefined when the
 * event had been applied before (a redelivery or a replay).
 */
export async function fanOutAndMark(db: Queryable, mark: ProcessedMark, event: FanOutEvent, options: FanOutOptions): Promise<number | undefined> {
  const rows = await query(db, options.redeliver ? FAN_OUT_AND_MARK.redeliver : FAN_OUT_AND_MARK.once, [...params(event, options), mark.group, mark.key]);
  return rows[0].applied ? rows[0].created : undefined;
}

type FanOutValues = [
  portfolio: string,
  eventId: string,
  type: PublicEventType,
  body: string,
  now: Date,
  facilityUuid: EventFilters['facilityUuid'],
  unitType: EventFilters['unitType'],
  amenityUuids: EventFilters['amenityUuids'],
  ignoreFilters: boolean,
  orderingKey: string | null,
  onlyEndpoint: string | null,
];

/** The statements, each with and without redelivery (which sends again to endpoints that already have the event). */
const FAN_OUT = {
  once: fanOutSql(false),
  redeliver: fanOutSql(true),
};
const FAN_OUT_AND_MARK = {
  once: fanOutAndMarkSql(false),
  redeliver: fanOutAndMarkSql(true),
};

function fanOutSql(redeliver: boolean) {
  return sql<{ created: number }, FanOutValues>(`WITH ${messagesCte(redeliver, '')} SELECT count(*)::int AS created FROM created`);
}

function fanOutAndMarkSql(redeliver: boolean) {
  return sql<{ applied: boolean; created: number }, [...FanOutValues, group: string, key: string]>(
    `WITH mark AS (${processedMark('$12', '$13')}), ${messagesCte(redeliver, 'EXISTS (SELECT 1 FROM mark) AND')}
     SELECT EXISTS (SELECT 1 FROM mark) AS applied, (SELECT count(*)::int FROM created) AS created`,
  );
}

function messagesCte(redeliver: boolean, gate: string): string {
  const onConflict = redeliver
    ? `DO UPDATE SET status = 'pending', attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at, ordering_key = EXCLUDED.ordering_key`
    : 'DO NOTHING';
  return `created AS (
     INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, ordering_key, status, attempts, next_attempt_at, created_at)
     SELECT ${NEW_MESSAGE_ID}, e.id, e.portfolio, $2, $3, $4, $10, 'pending', 0, $5, $5
     FROM webhook_endpoints e
     WHERE ${gate} ${endpointMatches('$1', '$3', '$6::uuid', '$7::uuid', '$8::uuid[]', '$9', '$11')}
     ON CONFLICT (endpoint_id, event_id) ${onConflict}
     RETURNING id)`;
}

function params(event: FanOutEvent, options: FanOutOptions): FanOutValues {
  return [
    event.portfolio,
    event.eventId,
    event.type,
    deliveryBodyOf(event),
    options.now,
    event.filters.facilityUuid,
    event.filters.unitType,
    event.filters.amenityUuids,
    options.ignoreFilters ?? false,
    event.orderingKey,
    options.onlyEndpoint ?? null,
  ];
}
