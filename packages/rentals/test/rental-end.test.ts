import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { postEntries } from '@storage/rental-ledger';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { saveUnit, saveUnitGroup, setUnitStatus } from '@storage/unit-occupancy';
import { endRental, importRentals } from '../src';

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
  db = await createDataSource({ url: database.url, applicationName: 'rentals-test' }).initialize();
  others = await insertRentalParents(db);
  // The portfolio, its facility and the occupancy-banded rate plan, as packages/testing's parent rows.
  await insertRentalParents(db, { portfolioUuid: ids.portfolio, facilityUuid: ids.facility, ratePlanUuid: ids.plan }, { occupancyBands: BANDS });
  // The unit group and its vacant units, as their owner writes them.
  await db.transaction(async (m) => {
    const group = {
      sizeAndTypeGroupUuid: others.sizeAndTypeGroupUuid,
      description: '10x10',
      tierLevel: 1,
      ratePlanUuid: ids.plan,
      canShowUnitGroupTenantPortal: true,
    };
    await saveUnitGroup(m, ids.facility, ids.group, { ...group, baseStreetRateInPennies: 10000, baseWebRateInPennies: 9000 });
    for (const [index, unit] of ids.units.entries()) await saveUnit(m, ids.facility, unit, { unitGroupUuid: ids.group, name: `A-${index}`, floor: '1' });
  });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

async function storedRates(): Promise<{ street: number; web: number }> {
  const rows = await query(
    db,
    sql<{ street: number; web: number }>(
      'SELECT current_street_rate_in_pennies AS street, current_web_rate_in_pennies AS web FROM unit_groups WHERE uuid = $1',
    ),
    [ids.group],
  );
  return rows[0];
}

describe('endRental', () => {
  const END_DATE = '2025-06-15';

  /** A rental on `unitUuid` with a running service, one ending after END_DATE, one ended before, current and ended coverage, and a gate code. */
  async function rentalOn(unitUuid: string, gateCode: string): Promise<string> {
    const uuid = randomUUID();
    const lock = (endDate: string | null) => ({
      uuid: randomUUID(),
      itemTypeUuid: others.itemTypeUuid,
      description: 'Lock',
      amountInPennies: 500,
      feeType: 'FIXED_AMOUNT',
      startDate: '2025-01-01',
      endDate,
    });
    const coverage = (endDate: string | null) => ({
      uuid: randomUUID(),
      coverageUuid: others.coverageUuid,
      premiumInPennies: 1200,
      coverageAmountInPennies: 200000,
      startDate: '2025-01-01',
      endDate,
      partnerCoverageId: null,
    });
    await db.transaction(async (m) => {
      await importRentals(m, [
        {
          uuid,
          portfolioUuid: ids.portfolio,
          facilityUuid: ids.facility,
          unitUuid,
          unitGroupUuid: ids.group,
          personUuid: others.personUuid,
          leadUuid: null,
          rentInPennies: 10000,
          startDate: '2025-01-01',
          nextDueDate: '2025-07-01',
          autopayPaymentMethod: null,
          gateCode: { uuid: randomUUID(), code: gateCode },
          services: [lock(null), lock('2025-09-30'), lock('2025-03-31')],
          vehicles: [],
          coverageEnrollments: [coverage(null), coverage('2025-03-31')],
        },
      ]);
      await postEntries(m, uuid, [{ kind: 'RENT', description: 'Rent', amountInPennies: 2500, postedOn: '2025-06-01', dueOn: '2025-06-01' }]);
    });
    return uuid;
  }

  async function rentalState(rentalRecordUuid: string): Promise<unknown> {
    const [state] = await query(
      db,
      sql<Record<string, unknown>>(`SELECT r.status, r.end_date::text AS "endDate", r.balance_in_pennies AS balance, u.status AS "unitStatus",
              ARRAY(SELECT s.end_date::text FROM rental_services s WHERE s.rental_record_uuid = r.uuid ORDER BY s.end_date NULLS FIRST) AS "serviceEnds",
              (SELECT count(*)::int FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid AND e.end_date IS NULL) AS "runningCoverages",
              (SELECT count(*)::int FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid AND e.end_date > now() - interval '1 minute') AS "coveragesEndedNow",
              (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS "gateCodes"
         FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid WHERE r.uuid = $1`),
      [rentalRecordUuid],
    );
    return state;
  }

  it('ends the rental, its services, coverage and gate code, and frees and reprices the unit, touching no other rental', async () => {
    await db.transaction(async (manager) => {
      for (const [index, unit] of ids.units.entries()) await setUnitStatus(manager, unit, index < 2 ? 'occupied' : 'vacant');
    });
    expect(await storedRates()).toEqual({ street: 11000, web: 9450 });
    const neighbour = await rentalOn(ids.units[0], '111111');
    const leaving = await rentalOn(ids.units[1], '222222');
    const running = { status: 'ACTIVE', endDate: null, balance: 2500, unitStatus: 'occupied', runningCoverages: 1, coveragesEndedNow: 0, gateCodes: 1 };

    await db.transaction((manager) => endRental(manager, { rentalRecordUuid: leaving, unitUuid: ids.units[1], endDate: END_DATE }));

    expect(await rentalState(leaving)).toEqual({
      status: 'MOVED_OUT',
      endDate: END_DATE,
      balance: 2500,
      unitStatus: 'vacant',
      serviceEnds: ['2025-03-31', END_DATE, END_DATE],
      runningCoverages: 0,
      coveragesEndedNow: 1,
      gateCodes: 0,
    });
    expect(await rentalState(neighbour)).toEqual({ ...running, serviceEnds: [null, '2025-03-31', '2025-09-30'] });
    // One of four units let: under half occupied, so base -5 % (street) and -10 % (web).
    expect(await storedRates()).toEqual({ street: 9500, web: 8100 });
  });
});
