import { query, sql } from '@storage/persistence';
import { RunFailed } from '../../src/run/business-day-runner';
import { seedFacility, seedRental, type RentalFixture } from '../support/fixtures';
import { outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

/*
 * A run writes a batch of rentals' transitions in one transaction; a rental whose write fails must be reported
 * alone, with nothing of it written, while the others of its batch are applied once each.
 */
describe('a rental whose transition fails', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
  });
  afterAll(() => bed.close());
  afterEach(() => query(scheduler.dataSource, sql('DROP TRIGGER IF EXISTS refuse_test_rental ON delinquencies')));

  /** Makes every write of `rental`'s delinquency fail, as a broken row or a bug would. */
  async function breakRental(rental: RentalFixture): Promise<void> {
    await query(
      scheduler.dataSource,
      sql(`
      CREATE OR REPLACE FUNCTION refuse_test_rental() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.rental_record_uuid = '${rental.rentalRecordUuid}' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$`),
    );
    await query(
      scheduler.dataSource,
      sql('CREATE TRIGGER refuse_test_rental BEFORE INSERT OR UPDATE ON delinquencies FOR EACH ROW EXECUTE FUNCTION refuse_test_rental()'),
    );
  }
  const repair = () => query(scheduler.dataSource, sql('DROP TRIGGER refuse_test_rental ON delinquencies'));

  it('is reported alone; the others of its message are applied once each', async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const rentals: RentalFixture[] = [];
    for (let i = 0; i < 6; i++) rentals.push(await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' }));
    const [broken, ...healthy] = rentals;
    if (broken === undefined) throw new Error('six rentals were seeded');
    await breakRental(broken);
    const schedule = { graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 0 };

    const worker = await scheduler.advancer.worker();
    try {
      const result = await worker.advance(
        rentals.map((rental) => rental.rentalRecordUuid),
        '2025-03-07',
        schedule,
      );
      expect(result.transitions).toBe(healthy.length);
      expect(result.failures.map((failure) => failure.rentalRecordUuid)).toEqual([broken.rentalRecordUuid]);
      expect(String(result.failures[0]?.error)).toContain('refused for the test');
    } finally {
      await worker.release();
    }
    expect(await outboxEvents(scheduler.dataSource, broken.rentalRecordUuid)).toEqual([]);
    for (const rental of healthy) {
      expect(statusTrail(await outboxEvents(scheduler.dataSource, rental.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07']);
    }
  });

  it('does not fail a batch of healthy rentals, which commits as one transaction', async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const rentals: RentalFixture[] = [];
    for (let i = 0; i < 4; i++) rentals.push(await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' }));
    const uuids = rentals.map((rental) => rental.rentalRecordUuid);
    const schedule = { graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 2000 };

    const worker = await scheduler.advancer.worker();
    try {
      expect(await worker.advance(uuids, '2025-03-07', schedule)).toEqual({ transitions: 4, failures: [] });
    } finally {
      await worker.release();
    }
    // One transaction: every row it wrote (delinquencies, late fees, outbox rows) carries its id.
    const transactions = await query(
      scheduler.dataSource,
      sql<{ transaction: string }, [string[]]>(`
        SELECT xmin::text AS transaction FROM delinquencies WHERE rental_record_uuid = ANY($1::uuid[])
        UNION SELECT xmin::text FROM rental_ledger_entries WHERE rental_record_uuid = ANY($1::uuid[]) AND kind = 'LATE_FEE'`),
      [uuids],
    );
    expect(transactions).toHaveLength(1);
    for (const rental of rentals) {
      expect(statusTrail(await outboxEvents(scheduler.dataSource, rental.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07']);
    }
  });

  it('fails the run, which completes once the rental is repaired, without emitting anything twice', async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const rentals: RentalFixture[] = [];
    for (let i = 0; i < 5; i++) rentals.push(await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' }));
    const [, broken] = rentals;
    if (broken === undefined) throw new Error('five rentals were seeded');
    await breakRental(broken);

    const failed = await scheduler.run('2025-03-07', facility.facilityUuid).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RunFailed);
    expect((failed as RunFailed).failures.map((failure) => failure.rentalRecordUuid)).toEqual([broken.rentalRecordUuid]);
    const completed = () =>
      query(scheduler.dataSource, sql('SELECT 1 FROM delinquency_runs WHERE facility_uuid = $1 AND completed_at IS NOT NULL'), [facility.facilityUuid]);
    expect(await completed()).toHaveLength(0);

    await repair();
    await scheduler.run('2025-03-07', facility.facilityUuid);
    expect(await completed()).toHaveLength(1);
    for (const rental of rentals) {
      expect(statusTrail(await outboxEvents(scheduler.dataSource, rental.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07']);
    }
  });

  it("billing a rental that fails leaves its batch's others billed once, fails the run, and bills it once repaired", async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const rentals: RentalFixture[] = [];
    for (let i = 0; i < 5; i++) rentals.push(await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' }));
    const [, broken] = rentals;
    if (broken === undefined) throw new Error('five rentals were seeded');
    // A next due date that is not one of its billing days, as a bad row would: its periods cannot be computed.
    await query(
      scheduler.dataSource,
      sql(`UPDATE rental_records SET next_due_date = '2025-04-02' WHERE uuid = $1
           -- owner-bypass: a deliberate corruption, a next due date off the billing day that no owner writes`),
      [broken.rentalRecordUuid],
    );
    const billed = async (rental: RentalFixture): Promise<string[]> =>
      (
        await query(
          scheduler.dataSource,
          sql<{ due: string }>(
            `SELECT due_on::text AS due FROM rental_ledger_entries WHERE rental_record_uuid = $1 AND period_from IS NOT NULL AND kind = 'RENT' ORDER BY seq`,
          ),
          [rental.rentalRecordUuid],
        )
      ).map((row) => row.due);

    const failed = await scheduler.run('2025-04-02', facility.facilityUuid).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RunFailed);
    expect((failed as RunFailed).failures.map((failure) => failure.rentalRecordUuid)).toEqual([broken.rentalRecordUuid]);
    for (const rental of rentals) expect(await billed(rental)).toEqual(rental === broken ? [] : ['2025-04-01']);

    await query(
      scheduler.dataSource,
      sql(`UPDATE rental_records SET next_due_date = '2025-04-01' WHERE uuid = $1 -- owner-bypass: the corrupted row repaired, as an operator would`),
      [broken.rentalRecordUuid],
    );
    await scheduler.run('2025-04-02', facility.facilityUuid);
    for (const rental of rentals) expect(await billed(rental)).toEqual(['2025-04-01']);
  });
});
