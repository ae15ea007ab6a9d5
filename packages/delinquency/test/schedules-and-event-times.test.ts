import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DEFAULT_DELINQUENCY_SCHEDULE } from '@storage/domain';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { facilitySchedule } from '../src';
import { eventTimes } from '../src/event-times';

describe('eventTimes', () => {
  it('starts now, one millisecond apart', () => {
    expect(eventTimes(null, 3, 1_000).map((time) => time.getTime())).toEqual([1_000, 1_001, 1_002]);
  });

  it('always comes after the rental’s previous event, even when the clock has not moved on', () => {
    expect(eventTimes(new Date(5_000), 2, 4_000).map((time) => time.getTime())).toEqual([5_001, 5_002]);
  });
});

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
