import { randomUUID } from 'node:crypto';
import { Inject, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { sql, uniqueViolation, type Queryable } from '@storage/persistence';
import { balanceAfterPayment, recordedPayment, recordPayments, type PaymentToRecord, type RecordedPayment } from '@storage/rental-ledger';
import { keyedUuid } from '../../common';
import { SERVICE_NAME } from '../../service-info';
import type { RentalPath } from '../rental-lock';
import type { PaymentRecorded } from '../rentals.dto';
import { VersionedWrites, type VersionedReadValues, type VersionedRow } from '../versioned-writes';

const READ = sql<RentalRow, VersionedReadValues>(
  `SELECT k.ord::int AS ord, x.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
CROSS JOIN LATERAL (
  SELECT r.status, r.xmin::text AS version, r.balance_in_pennies AS "balanceInPennies", (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday"
    FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
   WHERE r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid) x`,
  { prepared: 'api_payment_read' },
);

interface RentalRow extends VersionedRow {
  balanceInPennies: number;
  facilityToday: CalendarDate;
}

/** A payment's answer, and whether it is the answer of a payment recorded before under the same idempotency key. */
export interface PaymentAnswer {
  payment: PaymentRecorded;
  replayed: boolean;
}

/**
 * Payments against a rental's balance; each emits the billing fact the delinquency scheduler resolves from. Two
 * round trips shared by concurrent payments (`VersionedWrites`): the balance after is the one read less the
 * payment, exact since the write applies only to the rental as read.
 */
@Injectable()
export class PaymentsService {
  private readonly rentals: VersionedWrites<RentalRow, PaymentToRecord>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.rentals = new VersionedWrites(dataSource, {
      read: READ,
      // `@storage/rental-ledger` owns recording payments; the producing service, as MessagingModule is given it.
      write: (db, payments) => recordPayments(db, payments, SERVICE_NAME),
      // A tenant who moved out owing money pays it afterwards: the balance outlives the rental (`endRental`).
      movedOut: 'accept',
    });
  }

  /**
   * Records the payment; with an idempotency key, only once: the payment's uuid is the key's (within the
   * portfolio), so a retry finds the payment its first try recorded and answers what that one did. Copies of one
   * request take turns on the rental (in this process, then at its row), and each looks the key's payment up before
   * it reads the rental, so all but the first find it.
   */
  async record(ref: RentalPath, amountInPennies: number, idempotencyKey?: string): Promise<PaymentAnswer> {
    const paymentUuid = idempotencyKey === undefined ? randomUUID() : keyedUuid('payment', ref.portfolioUuid, idempotencyKey);
    const decide = (rental: RentalRow) => paymentOf(ref, amountInPennies, paymentUuid, rental);
    const answered =
      idempotencyKey === undefined
        ? undefined
        : async (db: Queryable): Promise<PaymentAnswer | undefined> => {
            const earlier = await recordedPayment(db, paymentUuid);
            return earlier === undefined ? undefined : { payment: replay(earlier, ref, amountInPennies), replayed: true };
          };
    try {
      return await this.rentals.apply(ref, decide, answered);
    } catch (error) {
      // The same key on another rental at the same moment, whose payment took the uuid first: its answer now.
      if (answered === undefined || uniqueViolation(error)?.table !== 'payments') throw error;
      return this.rentals.apply(ref, decide, answered);
    }
  }
}

/** The payment of `amountInPennies` against the rental as read, and the answer it gives once written. */
function paymentOf(ref: RentalPath, amountInPennies: number, paymentUuid: string, rental: RentalRow): { write: PaymentToRecord; result: PaymentAnswer } {
  const payment: PaymentToRecord = {
    rentalRecordUuid: ref.rentalRecordUuid,
    portfolioId: ref.portfolioId,
    paymentUuid,
    amountInPennies,
    paidOn: rental.facilityToday,
    version: rental.version,
    balanceInPennies: rental.balanceInPennies,
  };
  const { rentalRecordUuid, paidOn } = payment;
  const recorded: PaymentRecorded = { paymentUuid, rentalRecordUuid, amountInPennies, balanceInPennies: balanceAfterPayment(payment), paidOn };
  return { write: payment, result: { payment: recorded, replayed: false } };
}

/** The first answer to the key, when the request is the same payment: another rental or amount is another payment. */
function replay(earlier: RecordedPayment, ref: RentalPath, amountInPennies: number): PaymentRecorded {
  if (earlier.rentalRecordUuid !== ref.rentalRecordUuid || earlier.amountInPennies !== amountInPennies) {
    throw new UnprocessableEntityException(
      `This Idempotency-Key was first used for a payment of ${earlier.amountInPennies} pennies to rental record ${earlier.rentalRecordUuid}; a different payment needs a key of its own.`,
    );
  }
  const { paymentUuid, rentalRecordUuid, paidOn, balanceAfterInPennies } = earlier;
  return { paymentUuid, rentalRecordUuid, amountInPennies, balanceInPennies: balanceAfterInPennies, paidOn };
}
