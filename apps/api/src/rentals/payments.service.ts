import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEnvelope } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { queryPrepared, type PreparedStatement } from '../common';
import { lockActiveRental, type RentalRef } from './rental-lock';
import type { PaymentRecorded } from './rentals.dto';

/** The payment's row and the balance it leaves, in one round trip. */
const RECORD: PreparedStatement = {
  name: 'api-record-payment',
  text: `WITH payment AS (
  INSERT INTO payments (rental_record_uuid, amount_in_pennies, paid_on) VALUES ($1, $2, $3) RETURNING uuid
)
UPDATE rental_records SET balance_in_pennies = balance_in_pennies - $2, updated_at = now() WHERE uuid = $1
RETURNING (SELECT uuid FROM payment) AS "paymentUuid", balance_in_pennies AS "balanceAfterInPennies"`,
};

/** Payments against a rental's balance; each emits the billing fact the delinquency scheduler resolves from. */
@Injectable()
export class PaymentsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly outbox: OutboxPublisher,
  ) {}

  async record(ref: RentalRef, amountInPennies: number): Promise<PaymentRecorded> {
    return this.dataSource.transaction(async (db) => {
      const rental = await lockActiveRental(db, ref);
      const paidOn = rental.facilityToday;
      const [recorded] = await queryPrepared<{ paymentUuid: string; balanceAfterInPennies: number }>(db, RECORD, [rental.uuid, amountInPennies, paidOn]);
      const { paymentUuid, balanceAfterInPennies } = recorded;
      const payload = { rentalRecordUuid: rental.uuid, paymentUuid, amountInPennies, balanceAfterInPennies, paidOn };
      await this.outbox.publish(db, createEnvelope({ type: 'payment-recorded', payload, occurredAt: new Date(), portfolio: ref.portfolioId }));
      return { paymentUuid, rentalRecordUuid: rental.uuid, amountInPennies, balanceInPennies: balanceAfterInPennies, paidOn };
    });
  }
}
