import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { addDays, DEFAULT_DELINQUENCY_SCHEDULE, type CalendarDate } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { postEntries } from '@storage/rental-ledger';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { BusinessDayAdvancer, DelinquencyService, openDelinquencyStatus, saveFacilitySchedule } from '../src';
import { advance, rentalOwing } from './support/delinquent-rental';

/*
 * A recorded payment as the scheduler's payments consumer hands it over (DelinquencyService.resolvePayment): it ends
 * the delinquency only when nothing is left past due beyond the grace days of the rental's facility's schedule.
 */

let database: TestDatabase;
let db: DataSource;
let advancer: BusinessDayAdvancer;
let service: DelinquencyService;
const DUE_ON = '2025-03-01';
const OWED = 6_000;
/** A day of the episode the default schedule has made OVERLOCK. */
const PAID_ON = addDays(DUE_ON, DEFAULT_DELINQUENCY_SCHEDULE.overlockDay + 2);

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'delinquency-payment-test' }).initialize();
  advancer = new BusinessDayAdvancer(db, 'delinquency-test');
  service = new DelinquencyService(db, new OutboxPublisher('delinquency-test'));
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const BALANCE = sql<{ balance: number; facilityUuid: string }, [string]>(
  'SELECT balance_in_pennies AS balance, facility_uuid AS "facilityUuid" FROM rental_records WHERE uuid = $1',
);
const SUSPENDED = sql<{ n: number }, [string]>('SELECT count(*)::int AS n FROM gate_code_suspensions WHERE rental_record_uuid = $1');
const STATUS_CHANGES = sql<{ payload: Record<string, unknown> }, [string]>(
  `SELECT envelope->'payload'->'delinquencyStatusChange' AS payload FROM outbox WHERE key = $1 AND type = 'delinquency-status-change' ORDER BY id`,
);

/** A rental the default schedule's run has made OVERLOCK (gate code suspended). */
async function rentalInOverlock(): Promise<string> {
  const uuid = await rentalOwing(db, OWED, DUE_ON);
  await advance(advancer, [uuid], addDays(DUE_ON, DEFAULT_DELINQUENCY_SCHEDULE.overlockDay), DEFAULT_DELINQUENCY_SCHEDULE);
  expect(await openDelinquencyStatus(db, uuid)).toBe('OVERLOCK');
  return uuid;
}

/** Pays `amount` through the ledger on `paidOn` and hands the recorded payment to resolvePayment, as the consumer does. */
async function pay(rentalRecordUuid: string, amountInPennies: number, paidOn: CalendarDate = PAID_ON) {
  return db.transaction(async (manager) => {
    const paymentUuid = randomUUID();
    const [{ balance }] = await query(manager, BALANCE, [rentalRecordUuid]);
    await postEntries(manager, rentalRecordUuid, [
      { kind: 'PAYMENT', description: 'Payment', amountInPennies: -amountInPennies, postedOn: paidOn, dueOn: null, paymentUuid },
    ]);
    return service.resolvePayment(manager, { rentalRecordUuid, paymentUuid, amountInPennies, balanceAfterInPennies: balance - amountInPennies, paidOn });
  });
}
const balanceOf = async (uuid: string) => (await query(db, BALANCE, [uuid]))[0];

it('moves a delinquent rental paid in full to PAID on the payment’s date: gate code restored, the status change carrying the payment date', async () => {
  const uuid = await rentalInOverlock();
  expect(await query(db, SUSPENDED, [uuid])).toEqual([{ n: 1 }]);
  const { balance } = await balanceOf(uuid);

  expect(await pay(uuid, balance)).toEqual({ from: 'OVERLOCK', to: 'PAID', trigger: 'PAYMENT_CLEARED', effectiveDate: PAID_ON });
  expect(await openDelinquencyStatus(db, uuid)).toBeNull();
  expect(await query(db, SUSPENDED, [uuid])).toEqual([{ n: 0 }]);
  expect((await query(db, STATUS_CHANGES, [uuid])).at(-1)?.payload).toMatchObject({
    delinquencyPreviousStatus: 'OVERLOCK',
    delinquencyNewStatus: 'PAID',
    delinquencyStatusChangeDate: PAID_ON,
    paymentDate: PAID_ON,
  });
});

it('leaves the rental where it is when the payment leaves a charge past due beyond the grace days', async () => {
  const uuid = await rentalInOverlock();
  const { balance } = await balanceOf(uuid);
  const changes = (await query(db, STATUS_CHANGES, [uuid])).length;

  expect(await pay(uuid, balance - 100)).toBeNull();
  expect(await openDelinquencyStatus(db, uuid)).toBe('OVERLOCK');
  expect(await query(db, SUSPENDED, [uuid])).toEqual([{ n: 1 }]);
  expect((await query(db, STATUS_CHANGES, [uuid])).length).toBe(changes);
});

it('counts the grace days of the rental’s facility’s own schedule: a charge still within them does not keep the rental delinquent', async () => {
  const [withDefaults, withOwn] = [await rentalInOverlock(), await rentalInOverlock()];
  const { facilityUuid } = await balanceOf(withOwn);
  await saveFacilitySchedule(db, facilityUuid, { ...DEFAULT_DELINQUENCY_SCHEDULE, graceDays: 20, overlockDay: 25, lienDay: 30 });
  for (const uuid of [withDefaults, withOwn]) {
    // The old debt paid, a new charge due ten days before the payment left open: within 20 grace days, past 5.
    await db.transaction((manager) =>
      postEntries(manager, uuid, [
        { kind: 'RENT', description: 'Rent', amountInPennies: 1_000, postedOn: addDays(PAID_ON, -10), dueOn: addDays(PAID_ON, -10) },
      ]),
    );
  }
  for (const uuid of [withDefaults, withOwn]) await pay(uuid, (await balanceOf(uuid)).balance - 1_000);
  expect(await openDelinquencyStatus(db, withDefaults)).toBe('OVERLOCK');
  expect(await openDelinquencyStatus(db, withOwn)).toBeNull();
});

it('does nothing for a rental that is not delinquent, or one this database does not hold', async () => {
  const current = await rentalOwing(db, OWED, DUE_ON);
  expect(await pay(current, OWED, addDays(DUE_ON, 1))).toBeNull();
  expect(await openDelinquencyStatus(db, current)).toBeNull();
  expect(await query(db, STATUS_CHANGES, [current])).toEqual([]);

  const elsewhere = { rentalRecordUuid: randomUUID(), paymentUuid: randomUUID(), amountInPennies: 100, balanceAfterInPennies: 0, paidOn: PAID_ON };
  expect(await db.transaction((manager) => service.resolvePayment(manager, elsewhere))).toBeNull();
});
