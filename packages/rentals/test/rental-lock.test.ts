import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { saveUnit, setUnitStatus } from '@storage/unit-occupancy';
import { lockRental, lockTenant, moveIn } from '../src';

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;
let rentals: [string, string];

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'rentals-lock-test' }).initialize();
  parents = await insertRentalParents(db);
  const secondUnit = randomUUID();
  await db.transaction(async (m) => {
    await setUnitStatus(m, parents.unitUuid, 'vacant');
    await saveUnit(m, parents.facilityUuid, secondUnit, { unitGroupUuid: parents.unitGroupUuid, name: 'L-2', floor: '1' });
  });
  const lead = randomUUID();
  await query(
    db,
    sql(
      `INSERT INTO leads (uuid, portfolio_uuid, facility_uuid, person_uuid, is_for_business) VALUES ($1, $2, $3, $4, false) -- owner-bypass: the api's lead, which no package can create`,
    ),
    [lead, parents.portfolioUuid, parents.facilityUuid, parents.personUuid],
  );
  // One tenant, two rentals.
  const rentalOn = (unitUuid: string) =>
    db.transaction((m) => moveIn(m, { ...parents, unitUuid, leadUuid: lead, rentInPennies: 10000, startDate: '2025-03-01', coverage: null }));
  rentals = [await rentalOn(parents.unitUuid), await rentalOn(secondUnit)];
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** Whether another transaction could lock the rental's row now, without waiting. */
async function lockableElsewhere(rentalRecordUuid: string): Promise<boolean> {
  return db.transaction(async (m) => {
    try {
      await query(m, sql('SELECT uuid FROM rental_records WHERE uuid = $1 FOR NO KEY UPDATE NOWAIT'), [rentalRecordUuid]);
      return true;
    } catch (error) {
      if (error instanceof Error && /could not obtain lock/.test(error.message)) return false;
      throw error;
    }
  });
}

/** Runs `lock` in a transaction held open while `check` runs. */
async function whileHolding(lock: (m: Parameters<typeof lockTenant>[0]) => Promise<unknown>, check: () => Promise<void>): Promise<void> {
  await db.transaction(async (m) => {
    await lock(m);
    await check();
  });
}

describe('lockRental', () => {
  it('locks the rental with its tenant’s other rentals, until the transaction ends', async () => {
    const [first, second] = rentals;
    await whileHolding(
      async (m) =>
        expect(await lockRental(m, { rentalRecordUuid: first, facilityUuid: parents.facilityUuid, portfolioUuid: parents.portfolioUuid })).toBe(true),
      async () => {
        expect(await lockableElsewhere(first)).toBe(false);
        expect(await lockableElsewhere(second)).toBe(false);
      },
    );
    expect(await lockableElsewhere(second)).toBe(true);
  });

  it('locks nothing, and says so, when the rental is not of the facility or portfolio given', async () => {
    const [first, second] = rentals;
    await whileHolding(
      async (m) => {
        expect(await lockRental(m, { rentalRecordUuid: first, facilityUuid: randomUUID() })).toBe(false);
        expect(await lockRental(m, { rentalRecordUuid: first, portfolioUuid: randomUUID() })).toBe(false);
      },
      async () => {
        expect(await lockableElsewhere(first)).toBe(true);
        expect(await lockableElsewhere(second)).toBe(true);
      },
    );
  });
});

describe('lockTenant', () => {
  it('locks every rental of the person', async () => {
    await whileHolding(
      (m) => lockTenant(m, parents.personUuid),
      async () => {
        for (const rental of rentals) expect(await lockableElsewhere(rental)).toBe(false);
      },
    );
  });
});
