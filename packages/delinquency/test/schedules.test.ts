import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DEFAULT_DELINQUENCY_SCHEDULE, type DelinquencySchedule } from '@storage/domain';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { facilitySchedule, saveFacilitySchedule } from '../src';

describe('facilitySchedule', () => {
  let database: TestDatabase;
  let db: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'delinquency-test' }).initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const insert = async (facilityUuid: string, days: [number, number, number, number]) => {
    await insertRentalParents(db, { facilityUuid });
    await query(
      db,
      sql(
        'INSERT INTO delinquency_schedules (facility_uuid, grace_days, overlock_day, lien_day, auction_day, late_fee_in_pennies) VALUES ($1, $2, $3, $4, $5, 1500)',
      ),
      [facilityUuid, ...days],
    );
  };

  it('answers the documented defaults for a facility without a schedule', async () => {
    const facilityUuid = randomUUID();
    expect(await facilitySchedule(db, facilityUuid)).toEqual({ facilityUuid, schedule: DEFAULT_DELINQUENCY_SCHEDULE, isDefault: true });
    // The README's "no row = defaults (5/10/30/60, $20)".
    expect(DEFAULT_DELINQUENCY_SCHEDULE).toEqual({ graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 2_000 });
  });

  it('answers the facility’s own schedule', async () => {
    const facilityUuid = randomUUID();
    await insert(facilityUuid, [3, 7, 21, 45]);
    expect(await facilitySchedule(db, facilityUuid)).toEqual({
      facilityUuid,
      schedule: { graceDays: 3, overlockDay: 7, lienDay: 21, auctionDay: 45, lateFeeInPennies: 1500 },
      isDefault: false,
    });
  });

  it('refuses a stored schedule whose stages are out of order rather than skip stages', async () => {
    const facilityUuid = randomUUID();
    await insert(facilityUuid, [5, 40, 30, 60]);
    await expect(facilitySchedule(db, facilityUuid)).rejects.toThrow(/in order/);
  });
});

describe('saveFacilitySchedule', () => {
  let database: TestDatabase;
  let db: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'delinquency-schedule-test' }).initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const OWN: DelinquencySchedule = { graceDays: 3, overlockDay: 8, lienDay: 20, auctionDay: 40, lateFeeInPennies: 1_000 };

  it('replaces a facility’s schedule with a changed one, and leaves other facilities on theirs', async () => {
    const [{ facilityUuid }, other] = [await insertRentalParents(db), await insertRentalParents(db)];
    expect(await saveFacilitySchedule(db, facilityUuid, OWN)).toBe(true);
    const changed = { ...OWN, auctionDay: 50, lateFeeInPennies: 0 };
    expect(await saveFacilitySchedule(db, facilityUuid, changed)).toBe(true);
    expect(await facilitySchedule(db, facilityUuid)).toEqual({ facilityUuid, schedule: changed, isDefault: false });
    expect(await facilitySchedule(db, other.facilityUuid)).toEqual({
      facilityUuid: other.facilityUuid,
      schedule: DEFAULT_DELINQUENCY_SCHEDULE,
      isDefault: true,
    });
  });

  it('accepts the tightest schedule the rule allows: no grace, every stage on the first day past due, no fee', async () => {
    const { facilityUuid } = await insertRentalParents(db);
    const tightest = { graceDays: 0, overlockDay: 1, lienDay: 1, auctionDay: 1, lateFeeInPennies: 0 };
    expect(await saveFacilitySchedule(db, facilityUuid, tightest)).toBe(true);
    expect((await facilitySchedule(db, facilityUuid)).schedule).toEqual(tightest);
  });

  it.each([
    ['OVERLOCK before the OVERDUE day', { overlockDay: 3 }, /in order/],
    ['LIEN before OVERLOCK', { lienDay: 7 }, /in order/],
    ['AUCTION before LIEN', { auctionDay: 19 }, /in order/],
    ['negative grace days', { graceDays: -1 }, /graceDays/],
    ['a day that is not whole', { lienDay: 20.5 }, /lienDay/],
    ['a negative late fee', { lateFeeInPennies: -1 }, /lateFeeInPennies/],
  ])('refuses %s, naming what is wrong, and keeps the facility’s schedule', async (_, change, problem) => {
    const { facilityUuid } = await insertRentalParents(db);
    await saveFacilitySchedule(db, facilityUuid, OWN);
    await expect(saveFacilitySchedule(db, facilityUuid, { ...OWN, ...change })).rejects.toThrow(problem);
    expect((await facilitySchedule(db, facilityUuid)).schedule).toEqual(OWN);
  });
});
