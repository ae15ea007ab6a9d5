import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { endRental } from '@storage/rentals';
import { LifecyclePublisher } from '../lifecycle-publisher';
import { lockActiveRental, type RentalPath } from '../rental-lock';
import { rentalView, type RentalView } from '../rentals.dto';

/**
 * Move-out: the rental ends today, its services and coverage with it, the unit is vacant again and the gate code
 * stops working (`endRental`, shared with auction completion); the balance stays.
 */
@Injectable()
export class MoveOutService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LifecyclePublisher) private readonly events: LifecyclePublisher,
  ) {}

  async moveOut(ref: RentalPath): Promise<RentalView> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      await endRental(db, { rentalRecordUuid: rental.uuid, unitUuid: rental.unitUuid, endDate: rental.facilityToday });
      return rentalView(await this.events.publish(db, 'moved-out', rental.uuid, {}, rental.lastEventAt), 'MOVED_OUT');
    });
  }
}
