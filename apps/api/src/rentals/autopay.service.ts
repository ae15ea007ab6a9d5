import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { setAutopay } from '@storage/rentals';
import { lockActiveRental, type RentalPath } from './rental-lock';
import type { AutopayView } from './autopay.dto';

/**
 * A rental's autopay: its payment method, which the scheduler's business day charges on each due date (null: off).
 * No event: the published events carry no
 * autopay field, and what autopay does is reported by its payments (`payment-recorded`, `payment-declined`).
 */
@Injectable()
export class AutopayService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Enables autopay with `paymentMethod`, or replaces the method; null disables it. 404 / 409 as other rental writes. */
  set(ref: RentalPath, paymentMethod: string | null): Promise<AutopayView> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      await setAutopay(db, rental.uuid, paymentMethod);
      return { rentalRecordUuid: rental.uuid, isAutopayEnabled: paymentMethod !== null, paymentMethod };
    });
  }
}
