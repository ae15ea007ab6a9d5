import { query, sql } from '@storage/persistence';
import { seedFacility, seedRental } from '../support/fixtures';
import { ofType, outboxEvents } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

/*
 * The run writes many rentals' transitions at once. A tenant's balance, shown by every event of each of their
 * rentals, is the sum of those rentals' balances: a late fee posted for one moves what the other's events show.
 */
describe('a tenant with two rentals going overdue on the same day', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
  });
  afterAll(() => bed.close());

  it("shows in each rental's events the tenant's balance as the late fees posted before them leave it", async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const first = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    const second = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01', sameTenantAs: first });

    await scheduler.run('2025-03-07');

    const rentals = [first.rentalRecordUuid, second.rentalRecordUuid];
    const events = (await outboxEvents(scheduler.dataSource)).filter((event) => rentals.includes(event.key ?? ''));
    const changes = ofType(events, 'delinquency-status-change');
    expect(changes.map((event) => event.payload.delinquencyStatusChange.delinquencyNewStatus)).toEqual(['OVERDUE', 'OVERDUE']);
    // In log order: the first change shows one late fee on the tenant's balance, the second both.
    expect(changes.map((event) => event.payload.tenantBalanceInPennies)).toEqual([22000, 24000]);
    expect(changes.map((event) => event.payload.unitRental.rentalBalance)).toEqual([12000, 12000]);
    const [{ balance }] = await query(
      scheduler.dataSource,
      sql<{ balance: number }>('SELECT sum(balance_in_pennies)::int AS balance FROM rental_records WHERE uuid = ANY($1::uuid[])'),
      [rentals],
    );
    expect(balance).toBe(24000);
  });
});
