import { addDays, balanceOf, billingDayFor, daysBetween, nextDueDateAfter, type DelinquencySchedule } from '@storage/domain';
import { asLedgerLines, ledgerEntries } from '@storage/rental-ledger';
import { query, sql } from '@storage/persistence';
import { BillingDay } from '../../src/run/billing-day';
import { BusinessDayRunner } from '../../src/run/business-day-runner';
import { DailyTimer } from '../../src/run/daily-timer';
import { changeBalance, seedFacility, seedRental } from '../support/fixtures';
import { ofType, outboxEvents, statusTrail } from '../support/outbox';
import { schedulerInstance, schedulerTestBed, type SchedulerInstance } from '../support/harness';

const STAGES = [
  { day: 6, step: 'null→OVERDUE' },
  { day: 10, step: 'OVERDUE→OVERLOCK' },
  { day: 30, step: 'OVERLOCK→LIEN' },
  { day: 60, step: 'LIEN→AUCTION' },
];

/** The status trail a rental due on `dueDate` must show once `asOf` has run: each stage at its day. */
function expectedTrail(dueDate: string, asOf: string): string[] {
  return STAGES.filter((stage) => daysBetween(dueDate, asOf) >= stage.day).map((stage) => `${stage.step}@${addDays(dueDate, stage.day)}`);
}

describe('missed days are caught up in order, per facility time zone', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
  });
  afterAll(() => bed.close());

  it('runs every date since the last completed run, in order; a second tick adds nothing', async () => {
    const auckland = await seedFacility(scheduler.dataSource, { timeZone: 'Pacific/Auckland' });
    const chicago = await seedFacility(scheduler.dataSource, { timeZone: 'America/Chicago' });
    const late = await seedRental(scheduler.dataSource, auckland, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    const fresh = await seedRental(scheduler.dataSource, chicago, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    await query(
      scheduler.dataSource,
      sql(`INSERT INTO delinquency_runs (facility_uuid, business_date, started_at, completed_at) VALUES ($1, '2025-03-05', now(), now())`),
      [auckland.facilityUuid],
    );
    const timer = new DailyTimer(scheduler.dataSource, scheduler.runner, 0);
    // 12:00 UTC is already 01:00 the next day in Auckland (UTC+13 in March).
    const now = new Date('2025-03-12T12:00:00Z');
    await timer.tick(now);

    const runs = await query(
      scheduler.dataSource,
      sql<{ facility_uuid: string; business_date: string }>(
        `SELECT facility_uuid, business_date::text FROM delinquency_runs WHERE completed_at IS NOT NULL ORDER BY completed_at`,
      ),
    );
    expect(runs.filter((run) => run.facility_uuid === auckland.facilityUuid).map((run) => run.business_date)).toEqual([
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
      '2025-03-11',
      '2025-03-12',
      '2025-03-13',
    ]);
    expect(runs.filter((run) => run.facility_uuid === chicago.facilityUuid).map((run) => run.business_date)).toEqual(['2025-03-12']);
    expect(statusTrail(await outboxEvents(scheduler.dataSource, late.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11']);
    expect(statusTrail(await outboxEvents(scheduler.dataSource, fresh.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11']);

    const count = (await outboxEvents(scheduler.dataSource)).length;
    await timer.tick(now);
    expect(await outboxEvents(scheduler.dataSource)).toHaveLength(count);
  });
});

describe('two scheduler instances over the same rentals', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let first: SchedulerInstance;
  let second: SchedulerInstance;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    first = bed.scheduler;
    second = await schedulerInstance(bed.database.url);
  });
  afterAll(async () => {
    await second.close();
    await bed.close();
  });

  async function seedRentals(count: number): Promise<{ rentalRecordUuid: string; dueDate: string }[]> {
    const rentals: { rentalRecordUuid: string; dueDate: string }[] = [];
    for (const timeZone of ['America/New_York', 'America/Los_Angeles']) {
      const facility = await seedFacility(first.dataSource, { timeZone });
      for (let i = 0; i < count; i++) {
        const dueDate = addDays('2025-01-01', i * 3);
        const { rentalRecordUuid } = await seedRental(first.dataSource, facility, { balanceInPennies: 5000, dueOn: dueDate });
        rentals.push({ rentalRecordUuid, dueDate });
      }
    }
    return rentals;
  }

  /** No event twice in the whole outbox (the earlier tests' rentals' too), and each of `rentals` at its stages once. */
  async function expectEachStageOnce(rentals: { rentalRecordUuid: string; dueDate: string }[], asOf: string): Promise<void> {
    const all = await outboxEvents(first.dataSource);
    expect(new Set(all.map((event) => event.eventId)).size).toBe(all.length);
    for (const rental of rentals) {
      expect(statusTrail(all.filter((event) => event.key === rental.rentalRecordUuid))).toEqual(expectedTrail(rental.dueDate, asOf));
    }
  }

  it('emits every event exactly once when both run the same dates at the same time', async () => {
    const rentals = await seedRentals(25);
    for (const asOf of ['2025-02-15', '2025-03-20']) {
      await Promise.all([first.run(asOf), second.run(asOf), first.run(asOf)]);
      await expectEachStageOnce(rentals, asOf);
      await expectEachPeriodBilledOnce(rentals, asOf);
    }
  });

  /** Each rental's periods from the month after its debt through `asOf`, each charged once: rent and its service. */
  async function expectEachPeriodBilledOnce(rentals: { rentalRecordUuid: string; dueDate: string }[], asOf: string): Promise<void> {
    for (const { rentalRecordUuid, dueDate } of rentals) {
      const entries = await ledgerEntries(first.dataSource.manager, rentalRecordUuid);
      const periods: string[] = [];
      for (let due = nextDueDateAfter(dueDate, billingDayFor(dueDate)); due <= asOf; due = nextDueDateAfter(due, billingDayFor(dueDate))) periods.push(due);
      const billed = entries.filter((entry) => entry.periodFrom !== null);
      expect(billed.map((entry) => `${entry.kind}@${entry.dueOn}`)).toEqual(periods.flatMap((due) => [`RENT@${due}`, `SERVICE_FEE@${due}`]));
      const charges = ofType(await outboxEvents(first.dataSource, rentalRecordUuid), 'charge-posted').map((event) => event.payload.chargeUuid);
      expect(billed.every((entry) => charges.includes(entry.entryUuid))).toBe(true);
      const [{ balance }] = await query(
        first.dataSource,
        sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'),
        [rentalRecordUuid],
      );
      expect(balance).toBe(balanceOf(asLedgerLines(entries)));
    }
  }

  it('bills each period once when both bill the same rentals at once without the facility lock, payments landing in between', async () => {
    const rentals = await seedRentals(20);
    const asOf = '2025-06-20';
    const facilities = await query(first.dataSource, sql<{ facility_uuid: string }>('SELECT DISTINCT facility_uuid FROM rental_records WHERE uuid = ANY($1)'), [
      rentals.map((rental) => rental.rentalRecordUuid),
    ]);
    const billing = [new BillingDay(first.dataSource), new BillingDay(second.dataSource)];
    const payments = rentals.map(({ rentalRecordUuid }) => changeBalance(second.dataSource, rentalRecordUuid, -700, asOf));
    const runs = facilities.flatMap(({ facility_uuid }) => [...billing, ...billing].map((instance) => instance.bill(facility_uuid, asOf, 3)));
    const results = await Promise.all(runs);
    await Promise.all(payments);
    expect(results.flatMap((result) => result.failures)).toEqual([]);
    await expectEachPeriodBilledOnce(rentals, asOf);
  });

  /** One worker (one connection) of `instance`'s run working through `order` one rental at a time, as a run's workers do. */
  const viaRun = async (instance: SchedulerInstance, order: readonly { rentalRecordUuid: string }[], asOf: string, schedule: DelinquencySchedule) => {
    const worker = await instance.advancer.worker();
    try {
      for (const { rentalRecordUuid } of order) {
        const { failures } = await worker.advance([rentalRecordUuid], asOf, schedule);
        expect(failures).toEqual([]);
      }
    } finally {
      await worker.release();
    }
  };

  it('applies each transition once even when both work on the same rentals without the facility lock', async () => {
    const rentals = await seedRentals(20);
    const asOf = '2025-04-30';
    const schedule = { graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 0 };
    const reversed = [...rentals].reverse();
    await Promise.all([
      viaRun(first, rentals, asOf, schedule),
      viaRun(first, reversed, asOf, schedule),
      viaRun(second, reversed, asOf, schedule),
      viaRun(second, rentals, asOf, schedule),
    ]);
    await expectEachStageOnce(rentals, asOf);
  });

  it('applies each transition and its late fee once when several workers race on the same rentals', async () => {
    const rentals = await seedRentals(20);
    const asOf = '2025-04-30';
    const schedule = { graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 2_000 };
    await Promise.all([viaRun(first, rentals, asOf, schedule), viaRun(first, [...rentals].reverse(), asOf, schedule), viaRun(second, rentals, asOf, schedule)]);
    await expectEachStageOnce(rentals, asOf);
    // One late fee per rental, on the balance once, the event showing the balance it left.
    for (const { rentalRecordUuid } of rentals) {
      const [fee, ...more] = ofType(await outboxEvents(first.dataSource, rentalRecordUuid), 'charge-posted');
      expect(more).toHaveLength(0);
      const [{ balance }] = await query(
        first.dataSource,
        sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'),
        [rentalRecordUuid],
      );
      expect(fee?.payload.balanceAfterInPennies).toBe(balance);
      // The fee is the ledger's entry the event names, once, and the balance is the sum of the entries.
      const entries = await ledgerEntries(first.dataSource.manager, rentalRecordUuid);
      expect(entries.filter((entry) => entry.kind === 'LATE_FEE').map((entry) => entry.entryUuid)).toEqual([fee?.payload.chargeUuid]);
      expect(balanceOf(asLedgerLines(entries))).toBe(balance);
    }
  });

  it('leaves a facility being run by the other instance when not asked to wait', async () => {
    const facility = await seedFacility(first.dataSource);
    const otherRunner = new BusinessDayRunner(second.dataSource, second.advancer, new BillingDay(second.dataSource), 2);
    const [held] = await Promise.all([
      first.runner.runDates(facility.facilityUuid, '2025-05-01', '2025-05-20', { wait: true }),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => otherRunner.runDates(facility.facilityUuid, '2025-05-01', '2025-05-01', { wait: false })),
    ]);
    expect(held).toHaveLength(20);
  });
});
