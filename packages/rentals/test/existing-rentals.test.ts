import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { setUnitStatus } from '@storage/unit-occupancy';
import { importRentals, type ExistingRental } from '../src';

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'existing-rentals-test' }).initialize();
  parents = await insertRentalParents(db);
  await db.transaction((m) => setUnitStatus(m, parents.unitUuid, 'vacant'));
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

it('brings a tenancy in with its ids, billing, services, vehicles, coverage history and gate code, and lets its unit', async () => {
  const rental: ExistingRental = {
    uuid: randomUUID(),
    portfolioUuid: parents.portfolioUuid,
    facilityUuid: parents.facilityUuid,
    unitUuid: parents.unitUuid,
    unitGroupUuid: parents.unitGroupUuid,
    personUuid: parents.personUuid,
    leadUuid: null,
    rentInPennies: 12900,
    startDate: '2025-01-30',
    nextDueDate: '2025-07-28',
    autopayPaymentMethod: 'pm_card_visa',
    gateCode: { uuid: randomUUID(), code: '204817' },
    services: [
      {
        uuid: randomUUID(),
        itemTypeUuid: parents.itemTypeUuid,
        description: 'Disc lock rental',
        amountInPennies: 500,
        feeType: 'FIXED_AMOUNT',
        startDate: '2025-01-30',
      },
    ],
    vehicles: [{ uuid: randomUUID(), type: 'Boat', make: 'Bayliner', model: 'VR5', licensePlateNumber: 'DMO1001', vin: '1HGCM82633A100001' }],
    coverageEnrollments: [
      {
        uuid: randomUUID(),
        coverageUuid: parents.coverageUuid,
        premiumInPennies: 900,
        coverageAmountInPennies: 200000,
        startDate: '2025-01-30',
        endDate: '2025-04-01',
        partnerCoverageId: null,
      },
      {
        uuid: randomUUID(),
        coverageUuid: parents.coverageUuid,
        premiumInPennies: 0,
        coverageAmountInPennies: 500000,
        startDate: '2025-04-01',
        endDate: null,
        partnerCoverageId: 'POL-1',
      },
    ],
  };
  await db.transaction((manager) => importRentals(manager, [rental]));

  const [row] = await query(
    db,
    sql<
      Record<string, unknown>
    >(`SELECT r.status, u.status AS "unitStatus", r.billing_day_of_month AS "billingDay", r.next_due_date::text AS "nextDue", r.balance_in_pennies AS balance,
            r.is_autopay_enabled AS autopay, (SELECT code FROM gate_codes WHERE rental_record_uuid = r.uuid) AS "gateCode",
            ARRAY(SELECT description FROM rental_services WHERE rental_record_uuid = r.uuid) AS services,
            ARRAY(SELECT license_plate_number FROM vehicles WHERE rental_record_uuid = r.uuid AND facility_uuid = r.facility_uuid) AS vehicles,
            ARRAY(SELECT (start_date AT TIME ZONE 'UTC')::date || ' to ' || coalesce((end_date AT TIME ZONE 'UTC')::date::text, 'now')
                    FROM coverage_enrollments WHERE rental_record_uuid = r.uuid ORDER BY start_date) AS coverage
       FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid WHERE r.uuid = $1`),
    [rental.uuid],
  );
  expect(row).toEqual({
    status: 'ACTIVE',
    unitStatus: 'occupied',
    billingDay: 28,
    nextDue: '2025-07-28',
    balance: 0,
    autopay: true,
    gateCode: '204817',
    services: ['Disc lock rental'],
    vehicles: ['DMO1001'],
    coverage: ['2025-01-30 to 2025-04-01', '2025-04-01 to now'],
  });
});
