import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { topicFor, type CalendarDate, type EventEnvelope } from '@storage/domain';
import { OUTBOX_CHANNEL, outboxInsertSql } from '@storage/messaging';
import { InvalidRequestException } from '@storage/platform';
import { RENTAL_EVENT_CONTEXT_COLUMNS, RENTAL_EVENT_CONTEXT_JOINS, rentalEnvelope, rentalEventContextOf, type RentalEventContextRow } from '@storage/rental-events';
import { queryPrepared, type PreparedStatement } from '../common';
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
 */
const READ: PreparedStatement = {
  name: 'api-rent-change-read',
  text: `SELECT r.status, r.xmin::text AS version, r.last_event_at AS "lastEventAt",
       (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday", ${RENTAL_EVENT_CONTEXT_COLUMNS}
  FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS}
 WHERE r.uuid = $1 AND r.facility_uuid = $2 AND r.portfolio_uuid = $3`,
};

/** One row (the notification, sent at commit as OutboxPublisher does) when the rental was still at version $4. */
const WRITE: PreparedStatement = {
  name: 'api-rent-change-write',
  text: `WITH changed AS (
  UPDATE rental_records SET rent_in_pennies = $2, updated_at = now(), last_event_at = $3 WHERE uuid = $1 AND xmin = $4::xid RETURNING uuid
), entry AS (
  ${outboxInsertSql('(SELECT $5::text, $6::text, $7::text, $8::text, $9::jsonb FROM changed) AS e(topic, key, type, event_id, envelope)', '$10')}
  RETURNING id
)
SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM entry`,
};

/** Rereads after this many concurrent changes of one rental; more means something is wrong. */
const MAX_ATTEMPTS = 10;

interface RentalRow extends RentalEventContextRow {
  status: string;
  version: string;
  lastEventAt: Date | null;
  facilityToday: CalendarDate;
}

/**
 * Rent change: the rental's rent becomes the new amount now (it is the billing template the next bill
 * uses); the event carries when it was decided and the day it applies from.
 */
@Injectable()
export class RentChangeService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async change(ref: RentalRef, newRentInPennies: number, effectiveDate: CalendarDate): Promise<RentalView> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const rental = activeRental(await queryPrepared<RentalRow>(this.dataSource, READ, [ref.rentalRecordUuid, ref.facilityUuid, ref.portfolioUuid]), ref);
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
      const written = await queryPrepared(this.dataSource, WRITE, [
        ref.rentalRecordUuid,
        newRentInPennies,
        occurredAt,
        rental.version,
        topicFor(envelope.type),
        envelope.key,
        envelope.type,
        envelope.eventId,
        JSON.stringify(envelope),
        SERVICE_NAME, // the producing service, as MessagingModule is given it
      ]);
      if (written.length > 0) return rentalView(context, 'ACTIVE');
    }
    throw new ConflictException(`Rental record ${ref.rentalRecordUuid} kept changing; try again.`);
  }
}
