import { query, sql, type Queryable, type Sql } from '@storage/persistence';

/*
 * Bringing in a large number of existing tenancies in one statement per table (the scale seed), beside
 * `importRentals`, which takes them from Node: each part's rows come from a query of the caller's, set-based
 * (generate_series), and this package writes them. The queries' columns are named as the table's, which a missing
 * or misspelt one fails on.
 */

/**
 * A tenancy as the load's query yields it, on a unit the caller's load wrote occupied (`@storage/unit-occupancy`'s
 * `createUnitsInBulk`). Billed on its start day each month, capped at 28 (`billingDayFor` of `@storage/domain`);
 * `next_due_date` is the first period not charged yet: the caller posts those before it (`@storage/rental-ledger`).
 */
export interface BulkRental {
  uuid: string;
  portfolio_uuid: string;
  facility_uuid: string;
  unit_uuid: string;
  unit_group_uuid: string;
  person_uuid: string;
  rent_in_pennies: number;
  start_date: string;
  next_due_date: string;
}

export interface BulkGateCode {
  facility_uuid: string;
  rental_record_uuid: string;
  code: string;
}

export interface BulkVehicle {
  uuid: string;
  facility_uuid: string;
  rental_record_uuid: string;
  type: string;
  license_plate_number: string;
  make: string;
  model: string;
  vin: string;
}

/** An enrollment, current or ended (`end_date`), as in `importRentals`. */
export interface BulkCoverageEnrollment {
  uuid: string;
  facility_uuid: string;
  rental_record_uuid: string;
  coverage_uuid: string;
  premium_in_pennies: number;
  coverage_amount_in_pennies: number;
  start_date: Date | string;
  end_date: Date | string | null;
  partner_coverage_id: string | null;
}

/** Writes the tenancies `rentals` yields, billed on their start day (capped at 28). */
export async function importRentalsInBulk<Values extends readonly unknown[]>(db: Queryable, rentals: Sql<BulkRental, Values>, values: Values): Promise<void> {
  await query(
    db,
    sql<never, Values>(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date)
     SELECT r.uuid, r.portfolio_uuid, r.facility_uuid, r.unit_uuid, r.unit_group_uuid, r.person_uuid, r.rent_in_pennies,
            least(extract(day FROM r.start_date)::int, 28) /* billingDayFor of @storage/domain */, r.next_due_date, r.start_date
       FROM (${rentals.text}) AS r`),
    values,
  );
}

/** Writes the gate codes `gateCodes` yields, of rentals brought in. */
export async function issueGateCodesInBulk<Values extends readonly unknown[]>(
  db: Queryable,
  gateCodes: Sql<BulkGateCode, Values>,
  values: Values,
): Promise<void> {
  await query(
    db,
    sql<never, Values>(
      `INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) SELECT g.facility_uuid, g.rental_record_uuid, g.code FROM (${gateCodes.text}) AS g`,
    ),
    values,
  );
}

/** Writes the vehicles `vehicles` yields, of rentals brought in. */
export async function recordVehiclesInBulk<Values extends readonly unknown[]>(
  db: Queryable,
  vehicles: Sql<BulkVehicle, Values>,
  values: Values,
): Promise<void> {
  await query(
    db,
    sql<never, Values>(`INSERT INTO vehicles (uuid, facility_uuid, rental_record_uuid, type, license_plate_number, make, model, vin)
     SELECT v.uuid, v.facility_uuid, v.rental_record_uuid, v.type, v.license_plate_number, v.make, v.model, v.vin FROM (${vehicles.text}) AS v`),
    values,
  );
}

/** Writes the coverage history `enrollments` yields, of rentals brought in. */
export async function enrollCoverageInBulk<Values extends readonly unknown[]>(
  db: Queryable,
  enrollments: Sql<BulkCoverageEnrollment, Values>,
  values: Values,
): Promise<void> {
  await query(
    db,
    sql<
      never,
      Values
    >(`INSERT INTO coverage_enrollments (uuid, facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies,
                                      start_date, end_date, partner_coverage_id)
     SELECT e.uuid, e.facility_uuid, e.rental_record_uuid, e.coverage_uuid, e.premium_in_pennies, e.coverage_amount_in_pennies,
            e.start_date, e.end_date, e.partner_coverage_id
       FROM (${enrollments.text}) AS e`),
    values,
  );
}
