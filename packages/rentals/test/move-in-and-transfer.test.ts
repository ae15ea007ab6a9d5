import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { saveUnit, setUnitStatus } from '@storage/unit-occupancy';
import { moveIn, setAutopay, transfer } from '../src';

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;
const otherUnit = randomUUID();
const lead = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'rentals-test' }).initialize();
  parents = await insertRentalParents(db);
  await db.transaction(async (m) => {
    await setUnitStatus(m, parents.unitUuid, 'vacant');
    await saveUnit(m, parents.facilityUuid, otherUnit, { unitGroupUuid: parents.unitGroupUuid, name: 'T-2', floor: '1' });
  });
  await query(
    db,
    sql(
      `INSERT INTO leads (uuid, portfolio_uuid, facility_uuid, person_uuid, is_for_business) VALUES ($1, $2, $3, $4, false) -- owner-bypass: the api's lead, which no package can create`,
    ),
    [lead, parents.portfolioUuid, parents.facilityUuid, parents.personUuid],
  );
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** What a tenant relies on of a rental: its billing, services, coverage, vehicles, gate code and unit. */
async function rental(uuid: string): Promise<Record<string, unknown>> {
  const [row] = await query(
    db,
    sql<
      Record<string, unknown>
    >(`SELECT r.status, r.unit_uuid AS "unitUuid", u.status AS "unitStatus", r.rent_in_pennies AS rent, r.billing_day_of_month AS "billingDay",
            r.next_due_date::text AS "nextDue", r.start_date::text AS "startDate", r.tenancy_start_date::text AS "tenancyStart",
            r.end_date::text AS "endDate", r.autopay_payment_method AS autopay,
            ARRAY(SELECT s.description || ' from ' || s.start_date || coalesce(' to ' || s.end_date, '') FROM rental_services s
                   WHERE s.rental_record_uuid = r.uuid ORDER BY s.start_date, s.description) AS services,
            (SELECT count(*)::int FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid AND e.end_date IS NULL) AS "runningCoverages",
            ARRAY(SELECT v.license_plate_number FROM vehicles v WHERE v.rental_record_uuid = r.uuid) AS vehicles,
            (SELECT g.code FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS "gateCode"
       FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid WHERE r.uuid = $1`),
    [uuid],
  );
  return row;
}

it('moves a tenant in with the coverage billed as a service and a gate code, and transfers the tenancy to a vacant unit', async () => {
  const coverage = {
    coverageUuid: parents.coverageUuid,
    premiumInPennies: 900,
    coverageAmountInPennies: 200000,
    itemTypeUuid: parents.itemTypeUuid,
    itemTypeName: 'Protection',
  };
  const movedIn = await db.transaction((manager) =>
    moveIn(manager, { ...parents, unitUuid: parents.unitUuid, leadUuid: lead, rentInPennies: 10000, startDate: '2025-03-30', coverage }),
  );
  const signed = await rental(movedIn);
  expect(signed).toMatchObject({
    status: 'ACTIVE',
    unitStatus: 'occupied',
    billingDay: 28,
    nextDue: '2025-03-30',
    services: ['Protection from 2025-03-30'],
    runningCoverages: 1,
  });
  expect(signed.gateCode).toMatch(/^\d{6}$/);

  await query(
    db,
    sql(
      `INSERT INTO vehicles (uuid, facility_uuid, rental_record_uuid, type, license_plate_number, make, model, vin) VALUES ($1, $2, $3, 'CAR', 'TX-1', 'Ford', 'T', 'V1')`,
    ),
    [randomUUID(), parents.facilityUuid, movedIn],
  );
  await db.transaction((manager) => setAutopay(manager, movedIn, 'pm_card_visa'));
  const moved = await db.transaction((manager) =>
    transfer(manager, {
      rentalRecordUuid: movedIn,
      unitUuid: parents.unitUuid,
      toUnitUuid: otherUnit,
      toUnitGroupUuid: parents.unitGroupUuid,
      rentInPennies: 12000,
      on: '2025-05-02',
    }),
  );

  expect(await rental(moved)).toEqual({
    status: 'ACTIVE',
    unitUuid: otherUnit,
    unitStatus: 'occupied',
    rent: 12000,
    billingDay: 28,
    nextDue: '2025-03-30',
    startDate: '2025-05-02',
    tenancyStart: '2025-03-30',
    endDate: null,
    autopay: 'pm_card_visa',
    services: ['Protection from 2025-05-02'],
    runningCoverages: 1,
    vehicles: ['TX-1'],
    gateCode: signed.gateCode,
  });
  expect(await rental(movedIn)).toMatchObject({
    status: 'MOVED_OUT',
    unitStatus: 'vacant',
    endDate: '2025-05-02',
    services: ['Protection from 2025-03-30 to 2025-05-02'],
    runningCoverages: 0,
    vehicles: [],
    gateCode: null,
  });
});
