import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { addDays } from '@storage/domain';
import { createDataSource, query, sql } from '@storage/persistence';
import { billRentals, ledgerEntries, periodChargeKey, postCurrentRentInBulk } from '@storage/rental-ledger';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { createUnitGroupsInBulk, createUnitsInBulk, forgetFacilityUnits } from '@storage/unit-occupancy';
import { enrollCoverageInBulk, forgetRentals, importRentalsInBulk, issueGateCodesInBulk, recordVehiclesInBulk } from '../src';

// The scale seed's path through the owners: units, tenancies and their unpaid period loaded from the caller's
// queries; and the demo seed's replacing: a portfolio's rentals and units forgotten, another portfolio untouched.
let database: TestDatabase;
let db: DataSource;
let loaded: RentalParents;
let other: RentalParents;
const ids = { group: randomUUID(), let: randomUUID(), vacant: randomUUID(), rental: randomUUID(), vehicle: randomUUID(), enrollment: randomUUID() };
const START = '2025-01-30';
let nextDueDate: string;

/** Counts of the rows a portfolio's rentals and units leave, in every table they write. */
const leftOf = async (p: RentalParents, rentalUuid: string): Promise<Record<string, number>> =>
  (
    await query(
      db,
      sql<Record<string, number>, [string, string, string]>(`SELECT (SELECT count(*)::int FROM rental_records WHERE portfolio_uuid = $1) AS rentals,
            (SELECT count(*)::int FROM rental_ledger_entries WHERE rental_record_uuid = $2) AS entries,
            (SELECT count(*)::int FROM gate_codes WHERE rental_record_uuid = $2) AS "gateCodes",
            (SELECT count(*)::int FROM vehicles WHERE rental_record_uuid = $2) AS vehicles,
            (SELECT count(*)::int FROM coverage_enrollments WHERE rental_record_uuid = $2) AS enrollments,
            (SELECT count(*)::int FROM units WHERE facility_uuid = $3) AS units,
            (SELECT count(*)::int FROM unit_groups WHERE facility_uuid = $3) AS "unitGroups",
            (SELECT count(*)::int FROM unit_group_occupancy_totals WHERE unit_group_uuid IN (SELECT uuid FROM unit_groups WHERE facility_uuid = $3)
               OR unit_group_uuid NOT IN (SELECT uuid FROM unit_groups)) AS occupancy`),
      [p.portfolioUuid, rentalUuid, p.facilityUuid],
    )
  )[0];

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'bulk-and-forget-test' }).initialize();
  loaded = await insertRentalParents(db);
  other = await insertRentalParents(db);
  const [{ today }] = await query(db, sql<{ today: string }>('SELECT current_date::text AS today'));
  nextDueDate = addDays(today, 10);
  await db.transaction(async (m) => {
    await createUnitGroupsInBulk(
      m,
      sql(`SELECT $1::uuid AS uuid, $2::uuid AS facility_uuid, $3::uuid AS size_and_type_group_uuid, '5x5' AS description, 1 AS tier_level,
              $4::uuid AS rate_plan_uuid, 4900 AS base_street_rate_in_pennies, 4400 AS base_web_rate_in_pennies`),
      [ids.group, loaded.facilityUuid, loaded.sizeAndTypeGroupUuid, loaded.ratePlanUuid],
    );
    await createUnitsInBulk(
      m,
      sql(`SELECT u.uuid, $3::uuid AS facility_uuid, $4::uuid AS unit_group_uuid, u.name, '1' AS floor, u.status
             FROM (VALUES ($1::uuid, 'B-1', 'occupied'), ($2::uuid, 'B-2', 'vacant')) AS u(uuid, name, status)`),
      [ids.let, ids.vacant, loaded.facilityUuid, ids.group],
    );
    await importRentalsInBulk(
      m,
      sql(`SELECT $1::uuid AS uuid, $2::uuid AS portfolio_uuid, $3::uuid AS facility_uuid, $4::uuid AS unit_uuid, $5::uuid AS unit_group_uuid,
              $6::uuid AS person_uuid, 4900 AS rent_in_pennies, $7::date AS start_date, $8::date AS next_due_date`),
      [ids.rental, loaded.portfolioUuid, loaded.facilityUuid, ids.let, ids.group, loaded.personUuid, START, nextDueDate],
    );
    await issueGateCodesInBulk(m, sql(`SELECT $1::uuid AS facility_uuid, $2::uuid AS rental_record_uuid, '123456' AS code`), [loaded.facilityUuid, ids.rental]);
    await recordVehiclesInBulk(
      m,
      sql(`SELECT $1::uuid AS uuid, $2::uuid AS facility_uuid, $3::uuid AS rental_record_uuid, 'Boat' AS type, 'BLK1' AS license_plate_number,
              'Bayliner' AS make, 'VR5' AS model, '1HGCM82633A100001' AS vin`),
      [ids.vehicle, loaded.facilityUuid, ids.rental],
    );
    await enrollCoverageInBulk(
      m,
      sql(`SELECT $1::uuid AS uuid, $2::uuid AS facility_uuid, $3::uuid AS rental_record_uuid, $4::uuid AS coverage_uuid, 900 AS premium_in_pennies,
              200000 AS coverage_amount_in_pennies, $5::date::timestamp AT TIME ZONE 'UTC' AS start_date, NULL::timestamptz AS end_date,
              NULL AS partner_coverage_id`),
      [ids.enrollment, loaded.facilityUuid, ids.rental, loaded.coverageUuid, START],
    );
    await postCurrentRentInBulk(m, sql('SELECT $1::uuid AS rental_record_uuid'), [ids.rental]);
  });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('a bulk load through the owners', () => {
  it('starts new unit groups at their base rates and counts the units as written', async () => {
    const [row] = await query(
      db,
      sql(`SELECT g.current_street_rate_in_pennies AS street, g.current_web_rate_in_pennies AS web, o.units, o.vacant_units AS vacant, o.active_rentals AS rentals
         FROM unit_groups g JOIN unit_group_occupancy o ON o.unit_group_uuid = g.uuid WHERE g.uuid = $1`),
      [ids.group],
    );
    expect(row).toEqual({ street: 4900, web: 4400, units: 2, vacant: 1, rentals: 1 });
  });

  it('bills a tenancy on its start day capped at 28, with its gate code, vehicle and coverage', async () => {
    const [row] = await query(
      db,
      sql(`SELECT r.billing_day_of_month AS day, r.next_due_date::text AS next, g.code, v.vin, e.coverage_uuid AS coverage
         FROM rental_records r JOIN gate_codes g ON g.rental_record_uuid = r.uuid JOIN vehicles v ON v.rental_record_uuid = r.uuid
         JOIN coverage_enrollments e ON e.rental_record_uuid = r.uuid WHERE r.uuid = $1`),
      [ids.rental],
    );
    expect(row).toEqual({ day: 28, next: nextDueDate, code: '123456', vin: '1HGCM82633A100001', coverage: loaded.coverageUuid });
  });

  it('owes the period under way as billing posts it: its balance, its oldest open charge, never billed again', async () => {
    const [entry] = await ledgerEntries(db.manager, ids.rental);
    const due = entry.dueOn ?? '';
    expect(entry).toMatchObject({ kind: 'RENT', amountInPennies: 4900, periodTo: nextDueDate });
    expect(due < nextDueDate && addDays(due, 31) >= nextDueDate).toBe(true);
    const [rental] = await query(
      db,
      sql(`SELECT balance_in_pennies AS balance, oldest_open_due_on::text AS oldest, next_due_date::text AS next,
              (SELECT charge_key FROM rental_ledger_entries WHERE rental_record_uuid = $1) AS "chargeKey" FROM rental_records WHERE uuid = $1`),
      [ids.rental],
    );
    expect(rental).toEqual({ balance: 4900, oldest: due, next: nextDueDate, chargeKey: periodChargeKey({ kind: 'RENT', itemTypeUuid: null, dueOn: due }) });
    expect((await billRentals(db, [ids.rental], due, { postedOn: due, source: 'test' })).billed).toEqual([]);
  });
});

describe('forgetting a portfolio', () => {
  it("deletes its rentals with every part of them, then its units, unit groups and occupancy; another portfolio's stay", async () => {
    const otherRental = randomUUID();
    await query(
      db,
      sql(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies, billing_day_of_month, next_due_date, start_date)
       VALUES ($1, $2, $3, $4, $5, $6, 10000, 15, '2026-04-15', '2026-03-15')`),
      [otherRental, other.portfolioUuid, other.facilityUuid, other.unitUuid, other.unitGroupUuid, other.personUuid],
    );
    const otherBefore = await leftOf(other, otherRental);
    expect(await leftOf(loaded, ids.rental)).toEqual({
      rentals: 1,
      entries: 1,
      gateCodes: 1,
      vehicles: 1,
      enrollments: 1,
      units: 3,
      unitGroups: 2,
      occupancy: 2,
    });

    await db.transaction(async (m) => {
      await forgetRentals(m, loaded.portfolioUuid);
      await forgetFacilityUnits(m, [loaded.facilityUuid]);
    });

    expect(await leftOf(loaded, ids.rental)).toEqual({
      rentals: 0,
      entries: 0,
      gateCodes: 0,
      vehicles: 0,
      enrollments: 0,
      units: 0,
      unitGroups: 0,
      occupancy: 0,
    });
    expect(await leftOf(other, otherRental)).toEqual(otherBefore);
  });
});
