import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CalendarDate, EventEnvelope } from '@storage/domain';
import { sql } from '@storage/persistence';
import { InvalidRequestException } from '@storage/platform';
import { changeRents, eventTimes, type RentChange } from '@storage/rentals';
import {
  RENTAL_EVENT_CONTEXT_COLUMNS,
  RENTAL_EVENT_CONTEXT_JOINS,
  rentalEnvelope,
  rentalEventContextOf,
  type RentalEventContextRow,
} from '@storage/rental-events';
import { SERVICE_NAME } from '../../service-info';
import type { RentalPath } from '../rental-lock';
import { rentalView, type RentalView } from '../rentals.dto';
import { VersionedWrites, type VersionedReadValues, type VersionedRow } from '../versioned-writes';

/** The rentals with their event context (the joins include `facilities f`). */
const READ = sql<RentalRow, VersionedReadValues>(
  `SELECT k.ord::int AS ord, x.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
CROSS JOIN LATERAL (
  SELECT r.status, r.xmin::text AS version, r.last_event_at AS "lastEventAt",
         (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday", ${RENTAL_EVENT_CONTEXT_COLUMNS}
    FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS}
   WHERE r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid) x`,
  { prepared: 'api_rent_change_read' },
);

interface RentalRow extends VersionedRow, RentalEventContextRow {
  lastEventAt: Date | null;
  facilityToday: CalendarDate;
}

/**
 * Rent change: the rental's rent becomes the new amount now (it is the billing template the next bill
 * uses); the event carries when it was decided and the day it applies from. The api's hot write: two round
 * trips shared by concurrent rent changes (`VersionedWrites`).
 */
@Injectable()
export class RentChangeService {
  private readonly rentals: VersionedWrites<RentalRow, RentChange>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.rentals = new VersionedWrites(dataSource, {
      read: READ,
      // The producing service, as MessagingModule is given it.
      write: (db, changes) => changeRents(db, changes, SERVICE_NAME),
    });
  }

  change(ref: RentalPath, newRentInPennies: number, effectiveDate: CalendarDate): Promise<RentalView> {
    return this.rentals.apply(ref, (rental) => {
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
      const [occurredAt] = eventTimes(rental.lastEventAt, 1);
      const envelope: EventEnvelope = rentalEnvelope('rent-change', context, { rentChange }, occurredAt);
      return {
        write: {
          rentalRecordUuid: rental.rental_record_uuid,
          rentInPennies: newRentInPennies,
          previousRentInPennies: rental.rent_in_pennies,
          effectiveDate,
          occurredAt,
          version: rental.version,
          envelope,
        },
        result: rentalView(context, 'ACTIVE'),
      };
    });
  }
}
