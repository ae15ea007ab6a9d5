import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { topicFor, type CalendarDate, type EventEnvelope } from '@storage/domain';
import { OUTBOX_CHANNEL, outboxInsertSql } from '@storage/messaging';
import { InvalidRequestException } from '@storage/platform';
import { RENTAL_EVENT_CONTEXT_COLUMNS, RENTAL_EVENT_CONTEXT_JOINS, rentalEnvelope, rentalEventContextOf, type RentalEventContextRow } from '@storage/rental-events';
import { Batcher, queryPrepared, type PreparedStatement } from '../common';
import { SERVICE_NAME } from '../service-info';
import { nextEventTime } from './event-time';
import { activeRental, type RentalRef } from './rental-lock';
import { rentalView, type RentalView } from './rentals.dto';

/*
 * Rent changes are the hot write of the api, so each is two round trips instead of a transaction of seven:
 * one read of the rental and its event context, then one statement (its own transaction) that changes the
 * rent and writes the event to the outbox, only if the rental row is still the version read (xmin). Every
 * writer of a rental (lifecycle actions, payments, the delinquency run's late fees) updates its row, so an
 * unchanged version means the context read is still the rental's; otherwise nothing is written and the
 * change is read and decided again, as under the lock the other writers take.
 *
 * Concurrent rent changes share those round trips: reads go together in one statement, and so do writes
 * (one transaction and one commit for all of them, each applied or not on its own version). A write batch
 * waits only for rental rows: the occupancy trigger fires at the end of the statement, once every row is
 * updated, and takes no row it would wait for, so a batch and a letting cannot wait for each other.
 */
const READ: PreparedStatement = {
  name: 'api-rent-change-read',
  text: `SELECT k.ord::int AS ord, x.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
CROSS JOIN LATERAL (
  SELECT r.status, r.xmin::text AS version, r.last_event_at AS "lastEventAt",
         (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday", ${RENTAL_EVENT_CONTEXT_COLUMNS}
    FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS}
   WHERE r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid) x`,
};

/** The rentals still at their version read, changed, each with its event; notified at commit as OutboxPublisher does. */
const WRITE: PreparedStatement = {
  name: 'api-rent-change-write',
  text: `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
    WITH ORDINALITY AS i(uuid, rent, occurred_at, version, topic, key, type, event_id, envelope, ord)
), changed AS (
  UPDATE rental_records r SET rent_in_pennies = i.rent, updated_at = now(), last_event_at = i.occurred_at
    FROM input i WHERE r.uuid = i.uuid AND r.uuid = ANY($1::uuid[]) AND r.xmin = i.version::xid RETURNING r.uuid
), entry AS (
  ${outboxInsertSql('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i JOIN changed c ON c.uuid = i.uuid ORDER BY i.ord) AS e', '$10')}
  RETURNING id
)
SELECT c.uuid::text AS uuid FROM changed c, (SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM entry LIMIT 1) AS notified`,
};

/** Rereads after this many concurrent changes of one rental; more means something is wrong. */
const MAX_ATTEMPTS = 10;
/** Batches of reads, and of writes, in flight at once (each holds a pooled connection for a round trip). */
const BATCHES_IN_FLIGHT = 2;
const MAX_BATCH = 200;

interface RentalRow extends RentalEventContextRow {
  ord: number;
  status: string;
  version: string;
  lastEventAt: Date | null;
  facilityToday: CalendarDate;
}

interface RentWrite {
  rentalRecordUuid: string;
  rentInPennies: number;
  occurredAt: Date;
  version: string;
  envelope: EventEnvelope;
}

/**
 * Rent change: the rental's rent becomes the new amount now (it is the billing template the next bill
 * uses); the event carries when it was decided and the day it applies from.
 */
@Injectable()
export class RentChangeService {
  private readonly reads: Batcher<RentalRef, RentalRow | undefined>;
  private readonly writes: Batcher<RentWrite, boolean>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.reads = new Batcher(
      async (refs) => {
        const rows = await queryPrepared<RentalRow>(dataSource, READ, [
          refs.map((ref) => ref.rentalRecordUuid),
          refs.map((ref) => ref.facilityUuid),
          refs.map((ref) => ref.portfolioUuid),
        ]);
        return refs.map((_, index) => rows.find((row) => row.ord === index + 1));
      },
      { concurrency: BATCHES_IN_FLIGHT, maxSize: MAX_BATCH, key: (ref) => `${ref.rentalRecordUuid}/${ref.facilityUuid}/${ref.portfolioUuid}` },
    );
    this.writes = new Batcher(
      async (writes) => {
        const applied = await queryPrepared<{ uuid: string }>(dataSource, WRITE, [
          writes.map((write) => write.rentalRecordUuid),
          writes.map((write) => write.rentInPennies),
          writes.map((write) => write.occurredAt),
          writes.map((write) => write.version),
          writes.map((write) => topicFor(write.envelope.type)),
          writes.map((write) => write.envelope.key),
          writes.map((write) => write.envelope.type),
          writes.map((write) => write.envelope.eventId),
          writes.map((write) => JSON.stringify(write.envelope)),
          SERVICE_NAME, // the producing service, as MessagingModule is given it
        ]);
        const changed = new Set(applied.map((row) => row.uuid));
        return writes.map((write) => changed.has(write.rentalRecordUuid));
      },
      // One write of a rental in flight at a time: in one batch a second would match the row the first changes, in
      // two batches they would wait for each other.
      { concurrency: BATCHES_IN_FLIGHT, maxSize: MAX_BATCH, key: (write) => write.rentalRecordUuid },
    );
  }

  async change(ref: RentalRef, newRentInPennies: number, effectiveDate: CalendarDate): Promise<RentalView> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const read = await this.reads.run(ref);
      const rental = activeRental(read === undefined ? [] : [read], ref);
      if (effectiveDate < rental.facilityToday) {
        throw new InvalidRequestException([{ field: 'effectiveDate', message: `effectiveDate must be today (${rental.facilityToday}) or later` }]);
      }
      if (newRentInPennies === rental.rent_in_pennies) throw new ConflictException(`The rent is already ${newRentInPennies} pennies.`);
      // The event shows the rental as the change leaves it: only the rent differs from what was read.
      const context = rentalEventContextOf({ ...rental, rent_in_pennies: newRentInPennies });
      const rentChange = {
        previousRentInPennies: rental.rent_in_pennies,
        currentRentInPennies: newRentInPennies,
        rentChangeDate: rental.facilityToday,
        rentChangeEffectiveDate: effectiveDate,
      };
      const occurredAt = nextEventTime(rental.lastEventAt);
      const envelope: EventEnvelope = rentalEnvelope('rent-change', context, { rentChange }, occurredAt);
      if (await this.writes.run({ rentalRecordUuid: ref.rentalRecordUuid, rentInPennies: newRentInPennies, occurredAt, version: rental.version, envelope })) {
        return rentalView(context, 'ACTIVE');
      }
    }
    throw new ConflictException(`Rental record ${ref.rentalRecordUuid} kept changing; try again.`);
  }
}
