import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEnvelope, type CalendarDate, type EventEnvelope } from '@storage/domain';
import { OUTBOX_CHANNEL, outboxInsertSql } from '@storage/messaging';
import { entriesJson, paymentEntry } from '@storage/rental-ledger';
import type { PreparedStatement } from '../common';
import { SERVICE_NAME } from '../service-info';
import type { RentalRef } from './rental-lock';
import type { PaymentRecorded } from './rentals.dto';
import { outboxColumns, VersionedWrites, type VersionedRow } from './versioned-writes';

const READ: PreparedStatement = {
  name: 'api-payment-read',
  text: `SELECT k.ord::int AS ord, x.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
CROSS JOIN LATERAL (
  SELECT r.status, r.xmin::text AS version, r.balance_in_pennies AS "balanceInPennies", (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday"
    FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
   WHERE r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid) x`,
};

/**
 * The payments of the rentals still at their version read, their ledger entries and events; notified at commit.
 * `changed` claims each rental (row lock, version rechecked after a wait); the ledger's function posts the
 * payments, and its trigger moves the balances, at the end of the statement.
 */
const WRITE: PreparedStatement = {
  name: 'api-payment-write-v2',
  text: `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::date[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::jsonb[], $12::jsonb[])
    WITH ORDINALITY AS i(uuid, payment_uuid, amount, paid_on, version, topic, key, type, event_id, envelope, ledger_entries, ord)
), changed AS (
  UPDATE rental_records r SET updated_at = now()
    FROM input i WHERE r.uuid = i.uuid AND r.uuid = ANY($1::uuid[]) AND r.xmin = i.version::xid RETURNING r.uuid
), payment AS (
  INSERT INTO payments (uuid, rental_record_uuid, amount_in_pennies, paid_on)
  SELECT i.payment_uuid, i.uuid, i.amount, i.paid_on FROM input i JOIN changed c ON c.uuid = i.uuid
), ledger AS (
  SELECT count(*) AS posted FROM rental_ledger_post(
    (SELECT jsonb_agg(e.entry ORDER BY i.ord, e.n) FROM input i JOIN changed c ON c.uuid = i.uuid,
            jsonb_array_elements(i.ledger_entries) WITH ORDINALITY AS e(entry, n)))
), entry AS (
  ${outboxInsertSql('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i JOIN changed c ON c.uuid = i.uuid ORDER BY i.ord) AS e', '$11')}
  RETURNING id
)
SELECT c.uuid::text AS uuid FROM changed c, ledger, (SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM entry LIMIT 1) AS notified`,
};

interface RentalRow extends VersionedRow {
  balanceInPennies: number;
  facilityToday: CalendarDate;
}

interface PaymentWrite {
  rentalRecordUuid: string;
  recorded: PaymentRecorded;
  version: string;
  envelope: EventEnvelope;
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
      writeParameters: (writes) => [
        writes.map((write) => write.rentalRecordUuid),
        writes.map((write) => write.recorded.paymentUuid),
        writes.map((write) => write.recorded.amountInPennies),
        writes.map((write) => write.recorded.paidOn),
        writes.map((write) => write.version),
        ...outboxColumns(writes.map((write) => write.envelope)),
        SERVICE_NAME, // the producing service, as MessagingModule is given it
        writes.map((write) => entriesJson(write.rentalRecordUuid, [paymentEntry(write.recorded)])),
      ],
    });
  }

  record(ref: RentalRef, amountInPennies: number): Promise<PaymentRecorded> {
    return this.rentals.apply(ref, (rental) => {
      const recorded: PaymentRecorded = {
        paymentUuid: randomUUID(),
        rentalRecordUuid: ref.rentalRecordUuid,
        amountInPennies,
        balanceInPennies: rental.balanceInPennies - amountInPennies,
        paidOn: rental.facilityToday,
      };
      const { paymentUuid, rentalRecordUuid, balanceInPennies: balanceAfterInPennies, paidOn } = recorded;
      const payload = { rentalRecordUuid, paymentUuid, amountInPennies, balanceAfterInPennies, paidOn };
      const envelope = createEnvelope({ type: 'payment-recorded', payload, occurredAt: new Date(), portfolio: ref.portfolioId });
      return { write: { rentalRecordUuid: ref.rentalRecordUuid, recorded, version: rental.version, envelope }, result: recorded };
    });
  }
}
