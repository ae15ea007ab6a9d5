import type { DataSource } from 'typeorm';
import { processedMarks } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { claimedMessage, holdsBackNew, IN_FLIGHT_LIMIT, type ClaimedMessage, type ClaimedRow } from '../delivery/message-store';
import { endpointMatches } from './endpoint-match';
import { deliveryBodyOf, NEW_MESSAGE_ID, type FanOutEvent } from './fan-out';

/** One event of a batch: the consumer group and key its processed-event mark is written under. */
export interface MarkedEvent {
  group: string;
  key: string;
  event: FanOutEvent;
}

/** Up to `count` of the new messages are created claimed, leased until `leaseUntil`, for the caller to send. */
export interface ClaimOnCreate {
  count: number;
  leaseUntil: Date;
  /** The claimer's attempts finished and not yet recorded: their leases hold no slot. */
  settled: string[];
}

export interface FanOutResult {
  /** Per event, in order: the messages created, or undefined when it had been applied before. */
  created: (number | undefined)[];
  claimed: ClaimedMessage[];
}

/** A message created claimed, as the statement answers it (JSON): its endpoint's columns of a claim (`ClaimedRow`). */
type ClaimedJson = Omit<ClaimedRow, 'event_type' | 'body' | 'attempts' | 'holds_others' | 'previous_secret_expires_at'> & {
  previous_secret_expires_at: string | null;
};

interface Row {
  applied: boolean;
  created: number;
  claimed: ClaimedJson[];
}

/** The columns of the events, `i`: n, grp, key, portfolio, event_id, type, body, facility, unit_type, amenities, ordering_key. */
const MANY_EVENTS = `SELECT * FROM jsonb_to_recordset($5::jsonb)
     AS i(n int, grp text, key text, portfolio text, event_id text, type text, body text, facility uuid, unit_type uuid, amenities uuid[], ordering_key uuid)`;
/**
 * A batch of one, the usual one at a steady rate, from plain parameters: the same statement then costs PostgreSQL
 * about 50 µs less per event than decoding a JSON array (a fifth of it).
 */
const ONE_EVENT = `SELECT 0 AS n, $5::text AS grp, $6::text AS key, $7::text AS portfolio, $8::text AS event_id, $9::text AS type,
     $10::text AS body, $11::uuid AS facility, $12::uuid AS unit_type, $13::uuid[] AS amenities, $14::uuid AS ordering_key`;

/**
 * The fan-out of the events `events` (MANY_EVENTS or ONE_EVENT); $1 is now, $2 the lease's end, $3 how many to claim,
 * $4 the claimer's settled attempts (`ClaimOnCreate`).
 * A new message is created claimed when it may go now as far as its rental's order goes (`holdsBackNew`: it is its
 * rental's latest) and its endpoint's limit across replicas leaves room (`webhook_endpoint_room`, asked in the order
 * of the endpoints' ids, as the claims do); a listen
 * session's are claimed by the replica holding its stream (`MessageStore.claimDue`).
 * The consumers hand over one event of a rental at a time, so a batch holds no two of one rental.
 */
const fanOutSql = (events: string): string => `WITH i AS (
   ${events}),
 mark AS (
   ${processedMarks('SELECT grp, key FROM i')}),
 new AS (
   SELECT ${NEW_MESSAGE_ID} AS id, e.id AS endpoint_id, e.portfolio, i.event_id, i.type, i.body,
          i.ordering_key, i.n, ${IN_FLIGHT_LIMIT} AS max_in_flight,
          e.listen_api_key IS NULL AND (i.ordering_key IS NULL OR NOT EXISTS (
            SELECT 1 FROM webhook_messages p WHERE ${holdsBackNew('$1')})) AS free
   FROM i
   JOIN mark ON mark.consumer_group = i.grp AND mark.event_id = i.key
   JOIN webhook_endpoints e ON ${endpointMatches('i.portfolio', 'i.type', 'i.facility', 'i.unit_type', 'i.amenities', 'false', 'NULL')}),
 room AS (
   SELECT endpoint_id, webhook_endpoint_room(endpoint_id, max_in_flight, $1, $4) AS room
   FROM (SELECT DISTINCT endpoint_id, max_in_flight FROM new WHERE free ORDER BY endpoint_id) free_endpoint),
 fits AS (
   SELECT new.*, free AND count(*) FILTER (WHERE free) OVER (PARTITION BY new.endpoint_id ORDER BY n ROWS UNBOUNDED PRECEDING) <= room.room AS fits
   FROM new LEFT JOIN room ON room.endpoint_id = new.endpoint_id),
 chosen AS (
   SELECT fits.*, fits AND count(*) FILTER (WHERE fits) OVER (ORDER BY n, endpoint_id ROWS UNBOUNDED PRECEDING) <= $3 AS claim
   FROM fits),
 created AS (
   INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, ordering_key, status, attempts, claimed, next_attempt_at, created_at)
   SELECT id, endpoint_id, portfolio, event_id, type, body, ordering_key, 'pending', 0, claim, CASE WHEN claim THEN $2::timestamptz ELSE $1::timestamptz END, $1
   FROM chosen ORDER BY n
   ON CONFLICT (endpoint_id, event_id) DO NOTHING
   RETURNING id, endpoint_id, event_id, claimed)
 SELECT EXISTS (SELECT 1 FROM mark WHERE mark.consumer_group = i.grp AND mark.event_id = i.key) AS applied,
        (SELECT count(*)::int FROM created c WHERE c.event_id = i.event_id) AS created,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'endpoint_id', c.endpoint_id, 'url', e.url, 'secret', e.secret,
                  'previous_secret', e.previous_secret, 'previous_secret_expires_at', e.previous_secret_expires_at,
                  'max_in_flight', ${IN_FLIGHT_LIMIT})), '[]')
           FROM created c JOIN webhook_endpoints e ON e.id = c.endpoint_id
          WHERE c.event_id = i.event_id AND c.claimed) AS claimed
 FROM i ORDER BY i.n`;

/** $1 to $4: now, the lease's end, how many to claim, the claimer's settled attempts. */
type ClaimValues = [now: Date, leaseUntil: Date, count: number, settled: string[]];
type EventInput = ReturnType<typeof eventInput>;
/** ONE_EVENT's $5 to $14, in its order. */
type OneEventValues = [
  grp: string,
  key: string,
  portfolio: string,
  eventId: string,
  type: string,
  body: string,
  facility: EventInput['facility'],
  unitType: EventInput['unit_type'],
  amenities: EventInput['amenities'],
  orderingKey: EventInput['ordering_key'],
];

const FAN_OUT_MANY = sql<Row, [...ClaimValues, events: string]>(fanOutSql(MANY_EVENTS), { prepared: 'webhook_fan_out_many' });
const FAN_OUT_ONE = sql<Row, [...ClaimValues, ...OneEventValues]>(fanOutSql(ONE_EVENT), { prepared: 'webhook_fan_out_one' });

/**
 * `fanOutAndMark` for many events in one statement (atomic, one round trip): each event's processed-event mark
 * (`processedMarks`, the rows `processedMark` writes) and its messages to the matching endpoints, created only when the mark
 * is new. Messages created claimed are due at their lease's end, so no other worker takes them meanwhile and a
 * crashed sender's come back, as after `MessageStore.claimDue`; the others are due now.
 */
export async function fanOutAndMarkMany(dataSource: DataSource, events: readonly MarkedEvent[], now: Date, claim: ClaimOnCreate): Promise<FanOutResult> {
  const input = events.map(eventInput);
  // Claimed messages come back without their body: it is the event's, which is here already (no second copy to
  // escape, send and parse).
  const head: ClaimValues = [now, claim.leaseUntil, claim.count, claim.settled];
  const rows =
    input.length === 1
      ? await query(dataSource, FAN_OUT_ONE, [...head, ...oneEventValues(input[0])])
      : await query(dataSource, FAN_OUT_MANY, [...head, JSON.stringify(input)]);
  return {
    created: rows.map((row) => (row.applied ? row.created : undefined)),
    claimed: rows.flatMap((row, n) =>
      row.claimed.map((m) =>
        claimedMessage({
          ...m,
          previous_secret_expires_at: m.previous_secret_expires_at === null ? null : new Date(m.previous_secret_expires_at),
          event_type: input[n].type,
          body: input[n].body,
          attempts: 0,
          // The latest of its rental: nothing waits for it yet.
          holds_others: false,
        }),
      ),
    ),
  };
}

/** An event as the statement's `i` row (MANY_EVENTS decodes these from JSON). */
function eventInput({ group, key, event }: MarkedEvent, n: number) {
  return {
    n,
    grp: group,
    key,
    portfolio: event.portfolio,
    event_id: event.eventId,
    type: event.type,
    body: deliveryBodyOf(event),
    facility: event.filters.facilityUuid,
    unit_type: event.filters.unitType,
    amenities: event.filters.amenityUuids,
    ordering_key: event.orderingKey,
  };
}

function oneEventValues(event: EventInput): OneEventValues {
  return [event.grp, event.key, event.portfolio, event.event_id, event.type, event.body, event.facility, event.unit_type, event.amenities, event.ordering_key];
}
