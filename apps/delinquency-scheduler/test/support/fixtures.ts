import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { billingDayFor, nextDueDateAfter, type OccupancyBand } from '@storage/domain';
import { postEntries, type NewLedgerEntry } from '@storage/rental-ledger';
import { query, sql } from '@storage/persistence';

export interface FacilityFixture {
  portfolioUuid: string;
  portfolioId: string;
  facilityUuid: string;
  unitGroupUuid: string;
  unitTypeUuid: string;
  amenityUuids: string[];
}

export interface RentalFixture {
  rentalRecordUuid: string;
  unitUuid: string;
  personUuid: string;
  serviceItemTypeUuid: string;
}

/** A portfolio with one facility, unit type, size-and-type group, unit group (its rate plan without bands unless given) and two amenities. */
export async function seedFacility(db: DataSource, options: { timeZone?: string; occupancyBands?: OccupancyBand[] } = {}): Promise<FacilityFixture> {
  const f: FacilityFixture = {
    portfolioUuid: randomUUID(),
    portfolioId: `pf-${randomUUID().slice(0, 8)}`,
    facilityUuid: randomUUID(),
    unitGroupUuid: randomUUID(),
    unitTypeUuid: randomUUID(),
    amenityUuids: [randomUUID(), randomUUID()].sort(),
  };
  const sizeAndTypeGroupUuid = randomUUID();
  const ratePlanUuid = randomUUID();
  await query(db, sql(`INSERT INTO portfolios (uuid, portfolio_id, name) VALUES ($1, $2, 'Test portfolio')`), [f.portfolioUuid, f.portfolioId]);
  await query(
    db,
    sql(`INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
     VALUES ($1, $2, 'Main St Storage', '1 Main St', 'Austin', 'TX', '78701', '5125550100', '{}', $3)`),
    [f.facilityUuid, f.portfolioUuid, options.timeZone ?? 'America/Chicago'],
  );
  await query(db, sql(`INSERT INTO unit_types (uuid, portfolio_uuid, description) VALUES ($1, $2, 'Climate controlled')`), [f.unitTypeUuid, f.portfolioUuid]);
  await query(db, sql(`INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height) VALUES ($1, $2, $3, 10, 10, 8)`), [
    sizeAndTypeGroupUuid,
    f.facilityUuid,
    f.unitTypeUuid,
  ]);
  await query(db, sql(`INSERT INTO rate_plans (uuid, portfolio_uuid, name, occupancy_bands) VALUES ($1, $2, 'Occupancy', $3)`), [
    ratePlanUuid,
    f.portfolioUuid,
    JSON.stringify(options.occupancyBands ?? []),
  ]);
  await query(
    db,
    sql(`INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, rate_plan_uuid, base_street_rate_in_pennies,
                              base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
     VALUES ($1, $2, $3, '10x10 climate', $4, 12000, 11000, 12000, 11000)`),
    [f.unitGroupUuid, f.facilityUuid, sizeAndTypeGroupUuid, ratePlanUuid],
  );
  for (const amenityUuid of f.amenityUuids) {
    await query(db, sql(`INSERT INTO amenities (uuid, portfolio_uuid, description) VALUES ($1, $2, 'Amenity')`), [amenityUuid, f.portfolioUuid]);
    await query(db, sql(`INSERT INTO unit_group_amenities (unit_group_uuid, amenity_uuid) VALUES ($1, $2)`), [f.unitGroupUuid, amenityUuid]);
  }
  return f;
}

/**
 * An occupied unit rented by a new tenant since January 2024, with a gate code and one recurring service, owing
 * `balanceInPennies` of rent due on `dueOn` and billed monthly from then on: its billing day is `dueOn`'s (capped
 * at 28) and its next due date the billing day after `dueOn`, so business days after it bill the next months.
 */
export async function seedRental(
  db: DataSource,
  facility: FacilityFixture,
  options: { balanceInPennies: number; dueOn: string; rentInPennies?: number },
): Promise<RentalFixture> {
  const billingDay = billingDayFor(options.dueOn);
  const r: RentalFixture = { rentalRecordUuid: randomUUID(), unitUuid: randomUUID(), personUuid: randomUUID(), serviceItemTypeUuid: randomUUID() };
  await query(db, sql(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status) VALUES ($1, $2, $3, 'A-101', 'occupied')`), [
    r.unitUuid,
    facility.facilityUuid,
    facility.unitGroupUuid,
  ]);
  await query(
    db,
    sql(`INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone, is_sms_enrolled)
     VALUES ($1, $2, 'Ada', 'Lovelace', 'ada@example.com', '5125550101', true)`),
    [r.personUuid, facility.portfolioUuid],
  );
  await query(
    db,
    sql(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
    [
      r.rentalRecordUuid,
      facility.portfolioUuid,
      facility.facilityUuid,
      r.unitUuid,
      facility.unitGroupUuid,
      r.personUuid,
      options.rentInPennies ?? 10000,
      billingDay,
      nextDueDateAfter(options.dueOn, billingDay),
      `2024-01-${String(billingDay).padStart(2, '0')}`,
    ],
  );
  if (options.balanceInPennies !== 0) await changeBalance(db, r.rentalRecordUuid, options.balanceInPennies, options.dueOn);
  await query(db, sql(`INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, $3)`), [
    facility.facilityUuid,
    r.rentalRecordUuid,
    String(Math.floor(Math.random() * 1e8)),
  ]);
  await query(
    db,
    sql(
      `INSERT INTO item_types (uuid, portfolio_uuid, name, kind, price_in_pennies, fee_type) VALUES ($1, $2, 'Tenant protection', 'SERVICE', 1200, 'FIXED_AMOUNT')`,
    ),
    [r.serviceItemTypeUuid, facility.portfolioUuid],
  );
  await query(
    db,
    sql(`INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     VALUES ($1, $2, 'Tenant protection', 1200, 'FIXED_AMOUNT', '2024-01-01')`),
    [r.rentalRecordUuid, r.serviceItemTypeUuid],
  );
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
