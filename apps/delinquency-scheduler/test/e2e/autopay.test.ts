import { randomUUID } from 'node:crypto';
import { addDays, type CalendarDate } from '@storage/domain';
import { ledgerEntries, postEntries } from '@storage/rental-ledger';
import { query, sql } from '@storage/persistence';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { AutopayDay } from '../../src/autopay/autopay-day';
import { EmbeddedPaymentPort } from '../../src/autopay/embedded-payment-port';
import type { ChargeRequest, PaymentPort } from '../../src/autopay/payment.port';
import { BillingDay } from '../../src/run/billing-day';
import { BusinessDayRunner, RunFailed } from '../../src/run/business-day-runner';
import { runBusinessDate } from '../../src/run/run-business-date';
import { seedFacility, seedRental, type FacilityFixture } from '../support/fixtures';
import { ofType, outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

/** Rent 100.00 and the fixture's 12.00 service, due on the 1st of each month. */
const MONTH = 11_200;
const DUE = '2025-03-01';

describe('autopay on the business day', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;
  let facility: FacilityFixture;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
    facility = await seedFacility(scheduler.dataSource);
  });
  afterAll(() => bed.close());

  /** A rental with nothing owed, billed next on DUE, its autopay on `paymentMethod`. */
  async function autopayRental(paymentMethod: string): Promise<string> {
    const { rentalRecordUuid } = await seedRental(scheduler.dataSource, facility, {
      balanceInPennies: 0,
      dueOn: '2025-02-01',
      autopayPaymentMethod: paymentMethod,
    });
    return rentalRecordUuid;
  }

  async function runDays(from: CalendarDate, through: CalendarDate, run = scheduler.run): Promise<void> {
    for (let date = from; date <= through; date = addDays(date, 1)) await run(date, facility.facilityUuid);
  }

  const balanceOf = async (rentalRecordUuid: string): Promise<number | undefined> => {
    const rows = await query(scheduler.dataSource, sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'), [
      rentalRecordUuid,
    ]);
    return rows[0]?.balance;
  };
  const paymentsOf = async (rentalRecordUuid: string): Promise<{ uuid: string; amount: number; paidOn: string }[]> =>
    query(
      scheduler.dataSource,
      sql<{ uuid: string; amount: number; paidOn: string }>(
        'SELECT uuid, amount_in_pennies AS amount, paid_on::text AS "paidOn" FROM payments WHERE rental_record_uuid = $1',
      ),
      [rentalRecordUuid],
    );

  it('pays what billing made due with an approving method: a PAYMENT entry, payment-recorded, nothing owed, never OVERDUE', async () => {
    const rental = await autopayRental('pm_card_visa');
    const [dueDay] = await scheduler.run(DUE, facility.facilityUuid);
    expect(dueDay).toMatchObject({ billed: 1, autopayApproved: 1, autopayDeclined: 0 });
    await runDays(addDays(DUE, 1), '2025-03-12');

    const entries = await ledgerEntries(scheduler.dataSource.manager, rental);
    expect(entries.map((entry) => [entry.kind, entry.amountInPennies, entry.postedOn])).toEqual([
      ['RENT', 10_000, DUE],
      ['SERVICE_FEE', 1200, DUE],
      ['PAYMENT', -MONTH, DUE],
    ]);
    const [payment] = await paymentsOf(rental);
    expect(payment).toEqual({ uuid: entries[2]?.paymentUuid, amount: MONTH, paidOn: DUE });
    const events = await outboxEvents(scheduler.dataSource, rental);
    expect(ofType(events, 'payment-recorded').map((event) => event.payload)).toEqual([
      { rentalRecordUuid: rental, paymentUuid: payment?.uuid, amountInPennies: MONTH, balanceAfterInPennies: 0, paidOn: DUE },
    ]);
    expect(await balanceOf(rental)).toBe(0);
    expect(statusTrail(events)).toEqual([]);

    // A rerun of the due date charges nothing again.
    await scheduler.run(DUE, facility.facilityUuid);
    expect(await paymentsOf(rental)).toHaveLength(1);
    expect(await outboxEvents(scheduler.dataSource, rental)).toHaveLength(events.length);
  });

  it('a declining test method pays nothing: payment-declined, and OVERDUE on the sixth day like any unpaid charge', async () => {
    const rental = await autopayRental('pm_card_declined');
    const [dueDay] = await scheduler.run(DUE, facility.facilityUuid);
    expect(dueDay).toMatchObject({ billed: 1, autopayApproved: 0, autopayDeclined: 1 });
    await runDays(addDays(DUE, 1), '2025-03-07');

    const events = await outboxEvents(scheduler.dataSource, rental);
    const [declined, ...more] = ofType(events, 'payment-declined');
    expect(more).toEqual([]);
    expect(declined?.payload).toEqual({
      rentalRecordUuid: rental,
      attemptUuid: declined?.eventId,
      amountInPennies: MONTH,
      reason: 'card_declined',
      dueDate: DUE,
    });
    expect(ofType(events, 'payment-recorded')).toEqual([]);
    expect(await paymentsOf(rental)).toEqual([]);
    expect(statusTrail(events)).toEqual(['null→OVERDUE@2025-03-07']);
    expect(await balanceOf(rental)).toBe(MONTH + 2000);

    // Reruns of the due date and of the OVERDUE day ask the port nothing and emit nothing.
    await scheduler.run(DUE, facility.facilityUuid);
    await scheduler.run('2025-03-07', facility.facilityUuid);
    expect(await outboxEvents(scheduler.dataSource, rental)).toHaveLength(events.length);
    const attempts = await query(
      scheduler.dataSource,
      sql<{ status: string; reason: string }>('SELECT status, decline_reason AS reason FROM autopay_attempts WHERE rental_record_uuid = $1'),
      [rental],
    );
    expect(attempts).toEqual([{ status: 'DECLINED', reason: 'card_declined' }]);
  });

  it('leaves rentals without autopay, or owing nothing on their due date, alone', async () => {
    const manual = (await seedRental(scheduler.dataSource, facility, { balanceInPennies: 0, dueOn: '2025-02-01' })).rentalRecordUuid;
    const inCredit = await autopayRental('pm_card_visa');
    // Paid ahead: the credit covers the month, so autopay has nothing to charge.
    await scheduler.dataSource.transaction((m) =>
      postEntries(m, inCredit, [
        { kind: 'PAYMENT', description: 'Paid ahead', amountInPennies: -20_000, postedOn: '2025-02-15', dueOn: null, paymentUuid: randomUUID() },
      ]),
    );
    await scheduler.run(DUE, facility.facilityUuid);
    expect(await paymentsOf(manual)).toEqual([]);
    expect(await paymentsOf(inCredit)).toHaveLength(0);
    expect(await balanceOf(inCredit)).toBe(MONTH - 20_000);
  });

  it('a crash between the processor charging and the payment being recorded: the rerun asks again with the same key and records once', async () => {
    const rental = await autopayRental('pm_card_visa');
    const embedded = new EmbeddedPaymentPort();
    const asked: ChargeRequest[] = [];
    let crash = true;
    // The processor takes the money, then the scheduler dies before recording its answer.
    const port: PaymentPort = {
      charge: async (request) => {
        asked.push(request);
        const outcome = await embedded.charge(request);
        if (crash) throw new Error('scheduler died after the processor charged');
        return outcome;
      },
    };
    const { dataSource, advancer } = scheduler;
    const runner = new BusinessDayRunner(dataSource, advancer, new BillingDay(dataSource), 2, new AutopayDay(dataSource, port));
    const run = (asOf: CalendarDate): Promise<unknown> => runBusinessDate(dataSource, runner, { asOf, facilityUuid: facility.facilityUuid });

    await expect(run(DUE)).rejects.toThrow(RunFailed);
    expect(await paymentsOf(rental)).toEqual([]);
    crash = false;
    await run(DUE);
    await run(DUE);

    expect(asked.map((request) => [request.idempotencyKey, request.amountInPennies])).toEqual([
      [`autopay:${rental}:${DUE}`, MONTH],
      [`autopay:${rental}:${DUE}`, MONTH],
    ]);
    expect(await paymentsOf(rental)).toHaveLength(1);
    expect(await balanceOf(rental)).toBe(0);
    expect(ofType(await outboxEvents(dataSource, rental), 'payment-recorded')).toHaveLength(1);
  });

  it('settles under the rental’s one lock: after a payment of the tenant’s other rental being recorded commits', async () => {
    const { dataSource } = scheduler;
    const rental = await seedRental(dataSource, facility, { balanceInPennies: 0, dueOn: '2025-02-01', autopayPaymentMethod: 'pm_card_visa' });
    // The tenant's other rental bills on the 15th: the due date's billing leaves it alone.
    const sibling = await seedRental(dataSource, facility, { balanceInPennies: 0, dueOn: '2025-02-15', sameTenantAs: rental });
    await new BillingDay(dataSource).bill(facility.facilityUuid, DUE, 1);
    const autopay = new AutopayDay(dataSource, new EmbeddedPaymentPort());

    let charged: ReturnType<AutopayDay['charge']> | undefined;
    await dataSource.transaction(async (m) => {
      // A payment of the sibling recorded, not committed yet: its writer holds the sibling's row until its commit.
      const paymentUuid = randomUUID();
      await postEntries(m, sibling.rentalRecordUuid, [
        { kind: 'PAYMENT', description: 'Paid ahead', amountInPennies: -5000, postedOn: DUE, dueOn: null, paymentUuid },
      ]);
      let settled = false;
      charged = autopay.charge(facility.facilityUuid, DUE, 1).finally(() => (settled = true));
      await eventually(async () => expect(settled || (await sessionsWaitingForLocks(dataSource)) === 1).toBe(true));
      expect(settled).toBe(false);
    });
    expect(await charged).toEqual({ approved: 1, declined: 0, failures: [] });

    const events = await outboxEvents(dataSource, rental.rentalRecordUuid);
    expect(ofType(events, 'payment-recorded').map((event) => event.payload.balanceAfterInPennies)).toEqual([0]);
    expect(await balanceOf(rental.rentalRecordUuid)).toBe(0);
    expect(await balanceOf(sibling.rentalRecordUuid)).toBe(-5000);
  });

  it('one attempt per rental and due date, by a unique key', async () => {
    const rental = await autopayRental('pm_card_visa');
    await scheduler.run(DUE, facility.facilityUuid);
    await expect(
      query(
        scheduler.dataSource,
        sql(
          `INSERT INTO autopay_attempts (rental_record_uuid, due_on, payment_method, amount_in_pennies, idempotency_key) VALUES ($1, $2, 'pm_card_visa', 100, 'another')`,
        ),
        [rental, DUE],
      ),
    ).rejects.toThrow(/autopay_attempts_rental_due_on/);
  });
});
