import { createEnvelope, type CalendarDate, type EventEnvelope } from '@storage/domain';
import { OUTBOX_RETURNING, outboxAnnouncements, outboxInsert, outboxValues, type OutboxValues } from '@storage/messaging';
import { query, sql, type Queryable } from '@storage/persistence';
import { entriesJson, entriesOfRows } from './ledger-entries';
import { paymentEntry } from './rental-money';

/*
 * Recording payments: the one writer of the `payments` table, whoever took the money (an operator through the
 * api, autopay through the scheduler's payment port). A payment is its `payments` row, its ledger PAYMENT entry
 * and its `payment-recorded` fact, written together.
 */

/** A payment to record against a rental read at `version` (the rental's version of @storage/rentals: its row's xmin) with `balanceInPennies`. */
export interface PaymentToRecord {
  rentalRecordUuid: string;
  /** The `{portfolio}` id events name their portfolio by. */
  portfolioId: string;
  paymentUuid: string;
  amountInPennies: number;
  paidOn: CalendarDate;
  version: string;
  balanceInPennies: number;
}

/** One array element per payment, but the producing service ($11). */
type RecordPaymentsValues = [
  rentalRecordUuids: string[],
  paymentUuids: string[],
  amountsInPennies: number[],
  paidOn: CalendarDate[],
  versions: string[],
  ...events: OutboxValues,
  source: string,
  ledgerEntries: string[],
];

/**
 * The payments of the rentals still at their version read, their ledger entries and events, each event announced at
 * commit on its topic's channel with its row (`outboxAnnouncements`), so only billing's consumers wake, and need not
 * read the log.
 * `changed` claims each rental (row lock, version rechecked after a wait); the ledger's function posts the
 * payments, and its trigger moves the balances, at the end of the statement. A row `{ uuid }` per rental written.
 * Prepared: the api's batched hot write.
 */
const RECORD_PAYMENTS = sql<{ uuid: string }, RecordPaymentsValues>(
  `WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::date[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::json[], $12::json[])
    WITH ORDINALITY AS i(uuid, payment_uuid, amount, paid_on, version, topic, key, type, event_id, envelope, ledger_entries, ord)
), locked AS (
  -- In uuid order, as every writer of several rentals locks them (the rental's lock of @storage/rentals, billing),
  -- so none of them waits for another holding a rental it has itself: no deadlock.
  SELECT r.uuid FROM rental_records r WHERE r.uuid = ANY($1::uuid[]) ORDER BY r.uuid FOR NO KEY UPDATE
), changed AS (
  UPDATE rental_records r SET updated_at = now()
    FROM input i WHERE r.uuid = i.uuid AND r.uuid IN (SELECT uuid FROM locked) AND r.xmin = i.version::xid RETURNING r.uuid
), payment AS (
  INSERT INTO payments (uuid, rental_record_uuid, amount_in_pennies, paid_on)
  SELECT i.payment_uuid, i.uuid, i.amount, i.paid_on FROM input i JOIN changed c ON c.uuid = i.uuid
), ledger AS (
  SELECT count(*) AS posted FROM rental_ledger_post(${entriesOfRows('input r JOIN changed c ON c.uuid = r.uuid')})
), entry AS (
  ${outboxInsert('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i JOIN changed c ON c.uuid = i.uuid ORDER BY i.ord) AS e', '$11')}
  ${OUTBOX_RETURNING}
)
SELECT c.uuid::text AS uuid FROM changed c, ledger, ${outboxAnnouncements('entry')} AS notified`,
  { prepared: 'record_payments' },
);

/** The rental's balance once the payment is recorded: the one read less the payment. */
export function balanceAfterPayment(payment: PaymentToRecord): number {
  return payment.balanceInPennies - payment.amountInPennies;
}

/** The payment's `payment-recorded` fact. */
function paymentRecordedEnvelope(payment: PaymentToRecord, occurredAt: Date): EventEnvelope<'payment-recorded'> {
  const { rentalRecordUuid, paymentUuid, amountInPennies, paidOn } = payment;
  const payload = { rentalRecordUuid, paymentUuid, amountInPennies, balanceAfterInPennies: balanceAfterPayment(payment), paidOn };
  return createEnvelope({ type: 'payment-recorded', payload, occurredAt, portfolio: payment.portfolioId });
}

/**
 * Records payments in the caller's transaction (or as a statement of its own on a DataSource), one statement for
 * all of them; `source` is the producing service, recorded on the outbox rows. Answers the uuids of the rentals
 * written: one changed since its version was read is left out, for the caller to read again.
 */
export async function recordPayments(db: Queryable, payments: readonly PaymentToRecord[], source: string, occurredAt = new Date()): Promise<string[]> {
  if (payments.length === 0) return [];
  const written = await query(db, RECORD_PAYMENTS, [
    payments.map((payment) => payment.rentalRecordUuid),
    payments.map((payment) => payment.paymentUuid),
    payments.map((payment) => payment.amountInPennies),
    payments.map((payment) => payment.paidOn),
    payments.map((payment) => payment.version),
    ...outboxValues(payments.map((payment) => paymentRecordedEnvelope(payment, occurredAt))),
    source,
    payments.map((payment) => entriesJson(payment.rentalRecordUuid, [paymentEntry(payment)])),
  ]);
  return written.map((row) => row.uuid);
}

/** A payment as recorded, with the rental's balance right after it. */
export interface RecordedPayment {
  paymentUuid: string;
  rentalRecordUuid: string;
  amountInPennies: number;
  paidOn: CalendarDate;
  balanceAfterInPennies: number;
}

const RECORDED_PAYMENT = sql<RecordedPayment, [paymentUuid: string]>(
  `
SELECT p.uuid AS "paymentUuid", p.rental_record_uuid AS "rentalRecordUuid", p.amount_in_pennies AS "amountInPennies", p.paid_on::text AS "paidOn",
       (SELECT sum(b.amount_in_pennies)::int FROM rental_ledger_entries b WHERE b.rental_record_uuid = e.rental_record_uuid AND b.seq <= e.seq)
         AS "balanceAfterInPennies"
  FROM payments p JOIN rental_ledger_entries e ON e.rental_record_uuid = p.rental_record_uuid AND e.payment_uuid = p.uuid AND e.kind = 'PAYMENT'
 WHERE p.uuid = $1`,
  { prepared: 'recorded_payment' },
);

/** The payment recorded under this uuid, if any: the balance after it is its ledger's, the sum of the entries up to it. */
export async function recordedPayment(db: Queryable, paymentUuid: string): Promise<RecordedPayment | undefined> {
  const [payment] = await query(db, RECORDED_PAYMENT, [paymentUuid]);
  return payment;
}
