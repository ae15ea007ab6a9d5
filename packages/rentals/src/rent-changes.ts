import { OUTBOX_CHANNEL, outboxInsertSql } from '@storage/messaging';

/**
 * Rent changes of rentals read at a version (their row's xmin), as one statement for the api's batched hot write
 * (callers run it prepared): the rentals still at their version take the new rent and the event time, each change
 * is recorded with the date billing applies it from, each event goes to the outbox, notified at commit as
 * OutboxPublisher does. A row `{ uuid }` per rental written; one changed since it was read is left out.
 *
 * Parameters, one array element per rental: $1 uuid[], $2 new rent int[], $3 event time timestamptz[], $4 version
 * text[], $5..$9 the outbox columns (topic, key, type, event id, envelope json), $10 the producing service,
 * $11 previous rent int[], $12 effective date date[].
 */
export const CHANGE_RENTS_SQL = `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::json[],
                       $11::int[], $12::date[])
    WITH ORDINALITY AS i(uuid, rent, occurred_at, version, topic, key, type, event_id, envelope, previous_rent, effective_date, ord)
), locked AS (
  -- In uuid order, as every writer of several rentals locks them (the tenant lock of @storage/rental-events, billing),
  -- so none of them waits for another holding a rental it has itself: no deadlock.
  SELECT r.uuid FROM rental_records r WHERE r.uuid = ANY($1::uuid[]) ORDER BY r.uuid FOR NO KEY UPDATE
), changed AS (
  UPDATE rental_records r SET rent_in_pennies = i.rent, updated_at = now(), last_event_at = i.occurred_at
    FROM input i WHERE r.uuid = i.uuid AND r.uuid IN (SELECT uuid FROM locked) AND r.xmin = i.version::xid RETURNING r.uuid
), recorded AS (
  INSERT INTO rental_rent_changes (rental_record_uuid, effective_date, rent_in_pennies, previous_rent_in_pennies)
  SELECT i.uuid, i.effective_date, i.rent, i.previous_rent FROM input i JOIN changed c ON c.uuid = i.uuid
), entry AS (
  ${outboxInsertSql('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i JOIN changed c ON c.uuid = i.uuid ORDER BY i.ord) AS e', '$10')}
  RETURNING id
)
SELECT c.uuid::text AS uuid FROM changed c, (SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM entry LIMIT 1) AS notified`;
