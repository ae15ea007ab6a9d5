import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { repriceUnitGroup, saveUnit, saveUnitGroup, setUnitStatus } from '../src';

let database: TestDatabase;
let db: DataSource;
/** What a rental names besides its unit: a size-and-type group, a person, an item type, a coverage (of another portfolio). */
let others: RentalParents;
const ids = {
  portfolio: randomUUID(),
  facility: randomUUID(),
  plan: randomUUID(),
  group: randomUUID(),
  units: [randomUUID(), randomUUID(), randomUUID(), randomUUID()],
};

// Below half occupied: web -10 %, street -5 %; from half: web +5 %, street +10 %.
const BANDS = [
  { minOccupancyPercent: 0, maxOccupancyPercent: 50, streetAdjustmentPercent: -5, webAdjustmentPercent: -10 },
  { minOccupancyPercent: 50, maxOccupancyPercent: 100, streetAdjustmentPercent: 10, webAdjustmentPercent: 5 },
];

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'unit-occupancy-test' }).initialize();
  others = await insertRentalParents(db);
  // The portfolio, its facility and the occupancy-banded rate plan, as packages/testing's parent rows.
  await insertRentalParents(db, { portfolioUuid: ids.portfolio, facilityUuid: ids.facility, ratePlanUuid: ids.plan }, { occupancyBands: BANDS });
  // The unit group and its vacant units, as this package saves them.
  await db.transaction(async (m) => {
    await saveUnitGroup(m, ids.facility, ids.group, {
      sizeAndTypeGroupUuid: others.sizeAndTypeGroupUuid,
      description: '10x10',
      tierLevel: 1,
      ratePlanUuid: ids.plan,
      baseStreetRateInPennies: 10000,
      baseWebRateInPennies: 9000,
      canShowUnitGroupTenantPortal: true,
    });
    for (const [index, unit] of ids.units.entries()) await saveUnit(m, ids.facility, unit, { unitGroupUuid: ids.group, name: `A-${index}`, floor: '1' });
  });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

async function storedRates(): Promise<{ street: number; web: number }> {
  const rows: { street: number; web: number }[] = await query(
    db,
    sql('SELECT current_street_rate_in_pennies AS street, current_web_rate_in_pennies AS web FROM unit_groups WHERE uuid = $1'),
    [ids.group],
  );
  return rows[0];
}

describe('setUnitStatus', () => {
  it('reprices the unit group as units are let and freed, crossing a rate plan band each way', async () => {
    await db.transaction((manager) => setUnitStatus(manager, ids.units[0], 'occupied'));
    expect(await storedRates()).toEqual({ street: 9500, web: 8100 });
    await db.transaction((manager) => setUnitStatus(manager, ids.units[1], 'occupied'));
    expect(await storedRates()).toEqual({ street: 11000, web: 9450 });
    await db.transaction((manager) => setUnitStatus(manager, ids.units[1], 'vacant'));
    expect(await storedRates()).toEqual({ street: 9500, web: 8100 });
    await db.transaction((manager) => setUnitStatus(manager, ids.units[0], 'vacant'));
  });

  it('refuses an unknown unit, changing nothing', async () => {
    await expect(db.transaction((manager) => setUnitStatus(manager, randomUUID(), 'occupied'))).rejects.toThrow(/vanished/);
    expect(await storedRates()).toEqual({ street: 9500, web: 8100 });
  });
});

describe('repriceUnitGroup', () => {
  it('applies new base rates (one kept when left out) through the band of the current occupancy', async () => {
    await query(db, sql(`UPDATE units SET status = 'occupied' WHERE uuid = ANY($1::uuid[])`), [ids.units.slice(0, 3)]);
    const rates = await db.transaction((manager) => repriceUnitGroup(manager, ids.group, { base: { baseWebRateInPennies: 8000 } }));
    expect(rates).toEqual({
      unitGroupUuid: ids.group,
      baseStreetRateInPennies: 10000,
      baseWebRateInPennies: 8000,
      currentStreetRateInPennies: 11000,
      currentWebRateInPennies: 8400,
      occupancyPercent: 75,
    });
    expect(await storedRates()).toEqual({ street: 11000, web: 8400 });
  });

  it('finds a group only within the given facility and portfolio', async () => {
    const elsewhere = { facilityUuid: randomUUID(), portfolioUuid: ids.portfolio };
    expect(await db.transaction((manager) => repriceUnitGroup(manager, ids.group, { within: elsewhere }))).toBeNull();
    expect(
      await db.transaction((manager) => repriceUnitGroup(manager, ids.group, { within: { facilityUuid: ids.facility, portfolioUuid: randomUUID() } })),
    ).toBeNull();
    expect(await db.transaction((manager) => repriceUnitGroup(manager, randomUUID()))).toBeNull();
    const rates = await db.transaction((manager) =>
      repriceUnitGroup(manager, ids.group, { within: { facilityUuid: ids.facility, portfolioUuid: ids.portfolio } }),
    );
    expect(rates).toMatchObject({ currentStreetRateInPennies: 11000, currentWebRateInPennies: 8400 });
  });
});
