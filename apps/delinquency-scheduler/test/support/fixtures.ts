import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { billingDayFor, nextDueDateAfter, type OccupancyBand } from '@storage/domain';
import { postEntries, type NewLedgerEntry } from '@storage/rental-ledger';
import { importRentals, type ExistingCoverageEnrollment } from '@storage/rentals';
import { query, sql } from '@storage/persistence';
import { insertRentalParents } from '@storage/testing';
import { saveUnit, saveUnitGroup } from '@storage/unit-occupancy';

/*
 * The scheduler's fixtures, built as production builds them: the unit group and units by unit-occupancy's saveUnitGroup
 * and saveUnit, each rental by rentals' importRentals (a tenancy brought in with its ids, services, coverage and gate
 * code; its unit let, its group repriced), its balance by the ledger's postEntries. The api's rows (portfolio,
 * facility, catalog, shoppers) come from @storage/testing's insertRentalParents; those it does not make as the events
 * show them (the facility's time zone, the amenities, the tenant) are inserted here with the bypass stated: apps/api
 * is an app nobody may depend on.
 */

export interface FacilityFixture {
  portfolioUuid: string;
  portfolioId: string;
  facilityUuid: string;
  unitGroupUuid: string;
  unitTypeUuid: string;
  amenityUuids: string[];
  /** The item type the rentals' recurring service bills (insertRentalParents' own). */
  serviceItemTypeUuid: string;
  /** A coverage of that item type (insertRentalParents' own), for a rental enrolled in it. */
  coverageUuid: string;
}

export interface RentalFixture {
  rentalRecordUuid: string;
  unitUuid: string;
  personUuid: string;
  serviceItemTypeUuid: string;
}

/**
 * A portfolio with one facility (in `timeZone`, America/Chicago unless given), unit type, size-and-type group, rate
 * plan (without bands unless given) and one unit group of two amenities, at base rates 120.00 (street) and 110.00
 * (web), no unit yet. insertRentalParents' own unit group and unit (let, without a rental) are there too; the
 * fixtures' rentals are all in the unit group made here.
 */
export async function seedFacility(db: DataSource, options: { timeZone?: string; occupancyBands?: OccupancyBand[] } = {}): Promise<FacilityFixture> {
  const parents = await insertRentalParents(db, {}, { occupancyBands: options.occupancyBands ?? [] });
  const f: FacilityFixture = {
    portfolioUuid: parents.portfolioUuid,
    portfolioId: parents.portfolioId,
    facilityUuid: parents.facilityUuid,
    unitGroupUuid: randomUUID(),
    unitTypeUuid: parents.unitTypeUuid,
    amenityUuids: [randomUUID(), randomUUID()].sort(),
    serviceItemTypeUuid: parents.itemTypeUuid,
    coverageUuid: parents.coverageUuid,
  };
  if (options.timeZone !== undefined) {
    await query(
      db,
      sql(`UPDATE facilities SET time_zone = $2 WHERE uuid = $1
           -- owner-bypass: the api's facility (onboarding) in the time zone the test needs, which insertRentalParents does not set`),
      [f.facilityUuid, options.timeZone],
    );
  }
  await db.transaction((m) =>
    saveUnitGroup(m, f.facilityUuid, f.unitGroupUuid, {
      sizeAndTypeGroupUuid: parents.sizeAndTypeGroupUuid,
      description: '10x10 climate',
      tierLevel: 1,
      ratePlanUuid: parents.ratePlanUuid,
      baseStreetRateInPennies: 12000,
      baseWebRateInPennies: 11000,
      canShowUnitGroupTenantPortal: true,
    }),
  );
  for (const amenityUuid of f.amenityUuids) {
    await query(
      db,
      sql(`INSERT INTO amenities (uuid, portfolio_uuid, description) VALUES ($1, $2, 'Amenity')
           -- owner-bypass: the api's catalog (onboarding), which the scheduler cannot reach`),
      [amenityUuid, f.portfolioUuid],
    );
    await query(
      db,
      sql(`INSERT INTO unit_group_amenities (unit_group_uuid, amenity_uuid) VALUES ($1, $2)
           -- owner-bypass: the api's catalog (onboarding), which the scheduler cannot reach`),
      [f.unitGroupUuid, amenityUuid],
    );
  }
  return f;
}

/**
 * An occupied unit rented by a new tenant since January 2024, with a gate code and one recurring service, owing
 * `balanceInPennies` of rent due on `dueOn` and billed monthly from then on: its billing day is `dueOn`'s (capped
 * at 28) and its next due date the billing day after `dueOn`, so business days after it bill the next months.
 * `autopayPaymentMethod` turns its autopay on; `coverage` enrolls it since its start in the facility's coverage, which its service bills.
 * The tenant is a new one, or the tenant of `sameTenantAs`.
 */
export async function seedRental(
  db: DataSource,
  facility: FacilityFixture,
  options: { balanceInPennies: number; dueOn: string; rentInPennies?: number; autopayPaymentMethod?: string; coverage?: boolean; sameTenantAs?: RentalFixture },
): Promise<RentalFixture> {
  const billingDay = billingDayFor(options.dueOn);
  const startDate = `2024-01-${String(billingDay).padStart(2, '0')}`;
  const r: RentalFixture = {
    rentalRecordUuid: randomUUID(),
    unitUuid: randomUUID(),
    personUuid: options.sameTenantAs?.personUuid ?? randomUUID(),
    serviceItemTypeUuid: facility.serviceItemTypeUuid,
  };
  // A tenant of their own unless shared: the events show the tenant's balance, the sum of their rentals'.
  if (options.sameTenantAs === undefined)
    await query(
      db,
      sql(`INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone, is_sms_enrolled)
         VALUES ($1, $2, 'Ada', 'Lovelace', 'ada@example.com', '5125550101', true)
         -- owner-bypass: the api's tenant (shopping), which the scheduler cannot reach`),
      [r.personUuid, facility.portfolioUuid],
    );
  const coverageEnrollments: ExistingCoverageEnrollment[] =
    options.coverage !== true
      ? []
      : [
          {
            uuid: randomUUID(),
            coverageUuid: facility.coverageUuid,
            premiumInPennies: 1200,
            coverageAmountInPennies: 200_000,
            startDate,
            endDate: null,
            partnerCoverageId: null,
          },
        ];
  await db.transaction(async (m) => {
    await saveUnit(m, facility.facilityUuid, r.unitUuid, { unitGroupUuid: facility.unitGroupUuid, name: `A-${r.unitUuid.slice(0, 8)}`, floor: '1' });
    await importRentals(m, [
      {
        uuid: r.rentalRecordUuid,
        portfolioUuid: facility.portfolioUuid,
        facilityUuid: facility.facilityUuid,
        unitUuid: r.unitUuid,
        unitGroupUuid: facility.unitGroupUuid,
        personUuid: r.personUuid,
        leadUuid: null,
        rentInPennies: options.rentInPennies ?? 10000,
        startDate,
        nextDueDate: nextDueDateAfter(options.dueOn, billingDay),
        autopayPaymentMethod: options.autopayPaymentMethod ?? null,
        gateCode: { uuid: randomUUID(), code: String(Math.floor(Math.random() * 1e8)) },
        services: [
          {
            uuid: randomUUID(),
            itemTypeUuid: r.serviceItemTypeUuid,
            description: 'Tenant protection',
            amountInPennies: 1200,
            feeType: 'FIXED_AMOUNT',
            startDate: '2024-01-01',
          },
        ],
        vehicles: [],
        coverageEnrollments,
      },
    ]);
  });
  if (options.balanceInPennies !== 0) await changeBalance(db, r.rentalRecordUuid, options.balanceInPennies, options.dueOn);
  return r;
}

/**
 * Moves the rental's balance by `amountInPennies` through its ledger, the only writer of a balance: owed rent due
 * on `dueOn` when positive, a payment when negative.
 */
export async function changeBalance(db: DataSource, rentalRecordUuid: string, amountInPennies: number, dueOn: string): Promise<void> {
  const entry: NewLedgerEntry =
    amountInPennies > 0
      ? { kind: 'RENT', description: 'Rent', amountInPennies, postedOn: dueOn, dueOn }
      : { kind: 'PAYMENT', description: 'Payment', amountInPennies, postedOn: dueOn, dueOn: null, paymentUuid: randomUUID() };
  await db.transaction((manager) => postEntries(manager, rentalRecordUuid, [entry]));
}

/** A payment of everything the rental owes. */
export async function clearBalance(db: DataSource, rentalRecordUuid: string, paidOn: string): Promise<void> {
  const [{ balance }] = await query(db, sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'), [
    rentalRecordUuid,
  ]);
  if (balance > 0) await changeBalance(db, rentalRecordUuid, -balance, paidOn);
}
