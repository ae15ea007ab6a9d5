import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CalendarDate, EventEnvelope } from '@storage/domain';
import { sql } from '@storage/persistence';
import { paymentRecordedEnvelope, RECORD_PAYMENTS_SQL, recordPaymentsParameters, type PaymentToRecord } from '@storage/rental-ledger';
import { SERVICE_NAME } from '../service-info';
import type { RentalRef } from './rental-lock';
import type { PaymentRecorded } from './rentals.dto';
import { VersionedWrites, type VersionedRow } from './versioned-writes';

const READ = sql<RentalRow>(
  `SELECT k.ord::int AS ord, x.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
CROSS JOIN LATERAL (
  SELECT r.status, r.xmin::text AS version, r.balance_in_pennies AS "balanceInPennies", (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday"
    FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
   WHERE r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid) x`,
  { prepared: 'api_payment_read' },
);

/** The payment write of `@storage/rental-ledger`, which owns recording payments, prepared per connection. */
const WRITE = sql<{ uuid: string }>(RECORD_PAYMENTS_SQL, { prepared: 'api_payment_write' });

interface RentalRow extends VersionedRow {
  balanceInPennies: number;
  facilityToday: CalendarDate;
}

interface PaymentWrite {
  rentalRecordUuid: string;
  payment: PaymentToRecord;
  envelope: EventEnvelope<'payment-recorded'>;
}

/**
 * Payments against a rental's balance; each emits the billing fact the delinquency scheduler resolves from. Two
 * round trips shared by concurrent payments (`VersionedWrites`): the balance after is the one read less the
 * payment, exact since the write applies only to the rental as read.
 */
@Injectable()
export class PaymentsService {
  private readonly rentals: VersionedWrites<RentalRow, PaymentWrite>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.rentals = new VersionedWrites(dataSource, {
      read: READ,
      write: WRITE,
      // The producing service, as MessagingModule is given it.
      writeParameters: (writes) => recordPaymentsParameters(writes, SERVICE_NAME),
    });
  }

  record(ref: RentalRef, amountInPennies: number): Promise<PaymentRecorded> {
    return this.rentals.apply(ref, (rental) => {
      const payment: PaymentToRecord = {
        rentalRecordUuid: ref.rentalRecordUuid,
        portfolioId: ref.portfolioId,
        paymentUuid: randomUUID(),
        amountInPennies,
        paidOn: rental.facilityToday,
        version: rental.version,
        balanceInPennies: rental.balanceInPennies,
      };
      const envelope = paymentRecordedEnvelope(payment, new Date());
      const { paymentUuid, rentalRecordUuid, paidOn } = payment;
      const recorded: PaymentRecorded = { paymentUuid, rentalRecordUuid, amountInPennies, balanceInPennies: envelope.payload.balanceAfterInPennies, paidOn };
      return { write: { rentalRecordUuid, payment, envelope }, result: recorded };
    });
  }
}
