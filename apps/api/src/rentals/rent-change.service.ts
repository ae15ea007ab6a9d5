import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { InvalidRequestException } from '@storage/platform';
import { LifecyclePublisher } from './lifecycle-publisher';
import { lockActiveRental, type RentalRef } from './rental-lock';
import { rentalView, type RentalView } from './rentals.dto';

/**
 * Rent change: the rental's rent becomes the new amount now (it is the billing template the next bill
 * uses); the event carries when it was decided and the day it applies from.
 */
@Injectable()
export class RentChangeService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LifecyclePublisher) private readonly events: LifecyclePublisher,
  ) {}

  async change(ref: RentalRef, newRentInPennies: number, effectiveDate: CalendarDate): Promise<RentalView> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      if (effectiveDate < rental.facilityToday) {
        throw new InvalidRequestException([{ field: 'effectiveDate', message: `effectiveDate must be today (${rental.facilityToday}) or later` }]);
      }
      if (newRentInPennies === rental.rentInPennies) throw new ConflictException(`The rent is already ${newRentInPennies} pennies.`);
      await db.query('UPDATE rental_records SET rent_in_pennies = $2, updated_at = now() WHERE uuid = $1', [rental.uuid, newRentInPennies]);
      const rentChange = {
        previousRentInPennies: rental.rentInPennies,
        currentRentInPennies: newRentInPennies,
        rentChangeDate: rental.facilityToday,
        rentChangeEffectiveDate: effectiveDate,
      };
      return rentalView(await this.events.publish(db, 'rent-change', rental.uuid, { rentChange }, rental.lastEventAt), 'ACTIVE');
    });
  }
}
