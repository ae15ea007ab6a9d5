import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { setUnitStatus } from '@storage/unit-occupancy';
import { revokeGateCode } from './gate-codes';
import { LifecyclePublisher } from './lifecycle-publisher';
import { lockActiveRental, type RentalRef } from './rental-lock';
import { rentalView, type RentalView } from './rentals.dto';

/** Move-out: the rental ends today, its services with it, the unit is vacant again and the gate code stops working. */
@Injectable()
export class MoveOutService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LifecyclePublisher) private readonly events: LifecyclePublisher,
  ) {}

  async moveOut(ref: RentalRef): Promise<RentalView> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      const today = rental.facilityToday;
      // The balance stays: what the tenant still owes (or is owed) outlives the rental.
      await db.query(`UPDATE rental_records SET status = 'MOVED_OUT', end_date = $2, updated_at = now() WHERE uuid = $1`, [rental.uuid, today]);
      await db.query('UPDATE rental_services SET end_date = $2 WHERE rental_record_uuid = $1 AND (end_date IS NULL OR end_date > $2)', [rental.uuid, today]);
      await db.query('UPDATE coverage_enrollments SET end_date = now(), updated_at = now() WHERE rental_record_uuid = $1 AND end_date IS NULL', [rental.uuid]);
      await setUnitStatus(db, rental.unitUuid, 'vacant');
      await revokeGateCode(db, rental.uuid);
      return rentalView(await this.events.publish(db, 'moved-out', rental.uuid, {}, rental.lastEventAt), 'MOVED_OUT');
    });
  }
}
