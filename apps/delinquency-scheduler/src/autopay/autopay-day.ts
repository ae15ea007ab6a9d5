import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEnvelope, topicFor, type CalendarDate } from '@storage/domain';
import { OUTBOX_CHANNEL, outboxInsert } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
import { recordPayments, type PaymentToRecord } from '@storage/rental-ledger';
import { lockRental, type RentalVersion } from '@storage/rentals';
import { SERVICE_NAME } from '../service-info';
import { PAYMENT_PORT, type PaymentPort } from './payment.port';

/** The charges a billing day posts (a period's): a late fee or a carried charge due today does not start autopay. */
const PERIOD_CHARGE_KINDS = ['RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM'];

/**
 * An attempt per active autopay rental owing money with a period's charge due on the date, for what it owes,
 * written before the port is asked (a payment intent). Once per rental and due date: a rerun, another replica or
 * a run resumed after a crash inserts nothing again (`autopay_attempts_rental_due_on`).
 */
const OPEN_ATTEMPTS = sql<never, [facilityUuid: string, businessDate: CalendarDate, periodChargeKinds: readonly string[]]>(`
INSERT INTO autopay_attempts (rental_record_uuid, due_on, payment_method, amount_in_pennies, idempotency_key)
SELECT r.uuid, $2::date, r.autopay_payment_method, r.balance_in_pennies, 'autopay:' || r.uuid || ':' || $2::date
  FROM rental_records r
 WHERE r.facility_uuid = $1 AND r.status = 'ACTIVE' AND r.autopay_payment_method IS NOT NULL AND r.balance_in_pennies > 0
   AND EXISTS (SELECT 1 FROM rental_ledger_entries e WHERE e.rental_record_uuid = r.uuid AND e.due_on = $2::date AND e.kind = ANY($3::ledger_entry_kind[]))
ON CONFLICT (rental_record_uuid, due_on) DO NOTHING`);

/** The facility's attempts not settled yet: today's, and any an earlier run left between the port and its recording. */
const PENDING = sql<Attempt, [facilityUuid: string, businessDate: CalendarDate]>(`
SELECT a.uuid, a.rental_record_uuid AS "rentalRecordUuid", a.due_on::text AS "dueOn", a.payment_method AS "paymentMethod",
       a.amount_in_pennies AS "amountInPennies", a.idempotency_key AS "idempotencyKey", a.payment_uuid AS "paymentUuid", p.portfolio_id AS "portfolioId"
  FROM autopay_attempts a JOIN rental_records r ON r.uuid = a.rental_record_uuid JOIN portfolios p ON p.uuid = r.portfolio_uuid
 WHERE a.status = 'PENDING' AND r.facility_uuid = $1 AND a.due_on <= $2::date
 ORDER BY a.due_on, a.uuid`);

/** The version and balance the payment is recorded against, read under the rental's lock (after it: see lockRental). */
const LOCKED_RENTAL = sql<{ version: RentalVersion; balanceInPennies: number }, [rentalRecordUuid: string]>(
  `SELECT xmin::text AS version, balance_in_pennies AS "balanceInPennies" FROM rental_records WHERE uuid = $1`,
);

/** Settles an approved attempt, under the rental's lock taken before: no row when another run settled it first. */
const APPROVE = sql<{ uuid: string }, [attemptUuid: string, processorReference: string]>(
  `UPDATE autopay_attempts SET status = 'APPROVED', processor_reference = $2, completed_at = now() WHERE uuid = $1 AND status = 'PENDING' RETURNING uuid`,
);

/** Settles a declined attempt with its payment-declined fact, notified at commit; nothing when already settled. */
const DECLINE = sql<
  { notified: string },
  [attemptUuid: string, reason: string, topic: string, key: string, type: string, eventId: string, envelope: string, source: string]
>(`
WITH declined AS (
  UPDATE autopay_attempts SET status = 'DECLINED', decline_reason = $2, completed_at = now() WHERE uuid = $1 AND status = 'PENDING' RETURNING uuid
), entry AS (
  ${outboxInsert('(SELECT $3::text AS topic, $4::text AS key, $5::text AS type, $6::text AS event_id, $7::json AS envelope FROM declined) AS e', '$8')}
  RETURNING id
)
SELECT (SELECT count(pg_notify('${OUTBOX_CHANNEL}', '')) FROM (SELECT FROM entry LIMIT 1) n) AS notified`);

interface Attempt {
  uuid: string;
  rentalRecordUuid: string;
  dueOn: CalendarDate;
  paymentMethod: string;
  amountInPennies: number;
  idempotencyKey: string;
  paymentUuid: string;
  portfolioId: string;
}

export interface AutopayResult {
  approved: number;
  declined: number;
  failures: { rentalRecordUuid: string; error: unknown }[];
}

/**
 * The business day's autopay, after billing: every active autopay rental whose period came due that date and
 * that owes money is charged what it owes through the payment port, exactly once per rental and due date. An
 * approval is recorded as any payment (`recordPayments` of `@storage/rental-ledger`: payments row, PAYMENT
 * entry, payment-recorded); a decline pays nothing and emits payment-declined, and delinquency proceeds as for
 * any unpaid charge. A rental whose charge fails (the processor unreachable) is reported and its attempt kept, so
 * the date's rerun asks the port again with the same idempotency key.
 */
@Injectable()
export class AutopayDay {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PAYMENT_PORT) private readonly port: PaymentPort,
  ) {}

  async charge(facilityUuid: string, businessDate: CalendarDate, workers: number): Promise<AutopayResult> {
    await query(this.dataSource, OPEN_ATTEMPTS, [facilityUuid, businessDate, PERIOD_CHARGE_KINDS]);
    const pending = await query(this.dataSource, PENDING, [facilityUuid, businessDate]);
    const result: AutopayResult = { approved: 0, declined: 0, failures: [] };
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let attempt = pending[next++]; attempt !== undefined; attempt = pending[next++]) {
        try {
          result[await this.settle(attempt, businessDate)]++;
        } catch (error) {
          result.failures.push({ rentalRecordUuid: attempt.rentalRecordUuid, error });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, workers), pending.length) }, worker));
    return result;
  }

  private async settle(attempt: Attempt, businessDate: CalendarDate): Promise<'approved' | 'declined'> {
    const outcome = await this.port.charge({
      idempotencyKey: attempt.idempotencyKey,
      paymentMethod: attempt.paymentMethod,
      amountInPennies: attempt.amountInPennies,
      description: `Autopay of rental ${attempt.rentalRecordUuid}, due ${attempt.dueOn}`,
    });
    if (outcome.status === 'APPROVED') {
      await this.approve(attempt, outcome.reference, businessDate);
      return 'approved';
    }
    await this.decline(attempt, outcome.reason);
    return 'declined';
  }

  /** The attempt settled and its payment recorded in one transaction, so an approval is recorded once or not at all. */
  private approve(attempt: Attempt, reference: string, paidOn: CalendarDate): Promise<void> {
    return this.dataSource.transaction(async (db) => {
      // The rental's one lock (@storage/rentals), with its tenant's other rentals: a writer of any of them commits first.
      await lockRental(db, { rentalRecordUuid: attempt.rentalRecordUuid });
      const [rental] = await query(db, LOCKED_RENTAL, [attempt.rentalRecordUuid]);
      const settled = await query(db, APPROVE, [attempt.uuid, reference]);
      if (rental === undefined || settled.length === 0) return;
      // The money was taken: it is recorded even if the tenant paid or moved out meanwhile (a credit then).
      const { rentalRecordUuid, portfolioId, paymentUuid, amountInPennies } = attempt;
      const payment: PaymentToRecord = { rentalRecordUuid, portfolioId, paymentUuid, amountInPennies, paidOn, ...rental };
      const written = await recordPayments(db, [payment], SERVICE_NAME);
      // Under the rental's lock its version cannot move; failing here rolls the settlement back.
      if (written.length !== 1) throw new Error(`Rental record ${attempt.rentalRecordUuid} changed under its lock while recording autopay`);
    });
  }

  private async decline(attempt: Attempt, reason: string): Promise<void> {
    const { rentalRecordUuid, amountInPennies, dueOn } = attempt;
    const envelope = createEnvelope({
      type: 'payment-declined',
      eventId: attempt.uuid,
      occurredAt: new Date(),
      portfolio: attempt.portfolioId,
      payload: { rentalRecordUuid, attemptUuid: attempt.uuid, amountInPennies, reason, dueDate: dueOn },
    });
    await query(this.dataSource, DECLINE, [
      attempt.uuid,
      reason,
      topicFor(envelope.type),
      envelope.key,
      envelope.type,
      envelope.eventId,
      JSON.stringify(envelope),
      SERVICE_NAME,
    ]);
  }
}
