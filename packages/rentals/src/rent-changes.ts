import type { CalendarDate, EventEnvelope } from '@storage/domain';
import { OUTBOX_RETURNING, outboxAnnouncements, outboxInsert, outboxValues, type OutboxValues } from '@storage/messaging';
import { query, sql, type Queryable } from '@storage/persistence';
import type { RentalVersion } from './aggregate/version';

/** A rent change of a rental read at `version`, with the event that announces it. */
export interface RentChange {
  rentalRecordUuid: string;
  rentInPennies: number;
  previousRentInPennies: number;
  /** The day billing applies the new rent from. */
  effectiveDate: CalendarDate;
  /** The event time, stamped on the rental as its last event. */
  occurredAt: Date;
  version: RentalVersion;
  envelope: EventEnvelope;
}

/** One array element per rental, but the producing service ($10). */
type ChangeRentsValues = [
  rentalRecordUuids: string[],
  rentsInPennies: number[],
  occurredAt: Date[],
  versions: string[],
  ...events: OutboxValues,
  source: string,
  previousRentsInPennies: number[],
  effectiveDates: CalendarDate[],
];

/**
 * The rentals still at their version take the new rent and the event time, each change is recorded with the date
 * billing applies it from, each event goes to the outbox, notified at commit as OutboxPublisher does. A row
 * `{ uuid }` per rental written; one changed since it was read is left out. Prepared: the api's batched hot write.
 */
const CHANGE_RENTS = sql<{ uuid: string }, ChangeRentsValues>(
  `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::json[],
                       $11::int[], $12::date[])
    WITH ORDINALITY AS i(uuid, rent, occurred_at, version, topic, key, type, event_id, envelope, previous_rent, effective_date, ord)
), locked AS (
  -- In uuid order, as every writer of several rentals locks them (the rental's lock, billing),
  -- so none of them waits for another holding a rental it has itself: no deadlock.
  SELECT r.uuid FROM rental_records r WHERE r.uuid = ANY($1::uuid[]) ORDER BY r.uuid FOR NO KEY UPDATE
), changed AS (
  UPDATE rental_records r SET rent_in_pennies = i.rent, updated_at = now(), last_event_at = i.occurred_at
    FROM input i WHERE r.uuid = i.uuid AND r.uuid IN (SELECT uuid FROM locked) AND r.xmin = i.version::xid RETURNING r.uuid
), recorded AS (
  INSERT INTO rental_rent_changes (rental_record_uuid, effective_date, rent_in_pennies, previous_rent_in_pennies)
  SELECT i.uuid, i.effective_date, i.rent, i.previous_rent FROM input i JOIN changed c ON c.uuid = i.uuid
), entry AS (
  ${outboxInsert('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i JOIN changed c ON c.uuid = i.uuid ORDER BY i.ord) AS e', '$10')}
  ${OUTBOX_RETURNING}
)
SELECT c.uuid::text AS uuid FROM changed c, ${outboxAnnouncements('entry')} AS notified`,
  { prepared: 'change_rents' },
);

/**
 * Changes the rents of rentals still at the version read, in one statement (the caller's transaction, or one of its
 * own on a DataSource); `source` is the producing service, recorded on the outbox rows. Answers the uuids of the
 * rentals written: one changed since its version was read is left out, for the caller to read again.
 */
export async function changeRents(db: Queryable, changes: readonly RentChange[], source: string): Promise<string[]> {
  if (changes.length === 0) return [];
  const written = await query(db, CHANGE_RENTS, [
    changes.map((change) => change.rentalRecordUuid),
    changes.map((change) => change.rentInPennies),
    changes.map((change) => change.occurredAt),
    changes.map((change) => change.version),
    ...outboxValues(changes.map((change) => change.envelope)),
    source,
    changes.map((change) => change.previousRentInPennies),
    changes.map((change) => change.effectiveDate),
  ]);
  return written.map((row) => row.uuid);
}
