import type { EntityManager } from 'typeorm';
import { billingDayFor, type CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { setUnitStatus } from '@storage/unit-occupancy';
import type { NewService } from './services';

/** A service the rental has, or had (history stays: an ended one keeps its end date). */
export interface ExistingService extends NewService {
  uuid: string;
  endDate?: CalendarDate | null;
}

export interface ExistingVehicle {
  uuid: string;
  type: string;
  make: string;
  model: string;
  licensePlateNumber: string;
  vin: string;
}

/** A coverage the rental is, or was, enrolled in: midnight UTC of its days, as ended enrollments are kept. */
export interface ExistingCoverageEnrollment {
  uuid: string;
  coverageUuid: string;
  premiumInPennies: number;
  coverageAmountInPennies: number;
  startDate: CalendarDate;
  endDate: CalendarDate | null;
  partnerCoverageId: string | null;
}

/**
 * A tenancy that began before this system kept it (an operator bringing an open facility in; the demo seed), with
 * the ids it already has. Billed on its start day each month (capped at 28); `nextDueDate` is the first period
 * not charged yet: the caller posts the periods before it to the ledger (`@storage/rental-ledger`).
 */
export interface ExistingRental {
  uuid: string;
  portfolioUuid: string;
  facilityUuid: string;
  unitUuid: string;
  unitGroupUuid: string;
  personUuid: string;
  leadUuid: string | null;
  rentInPennies: number;
  startDate: CalendarDate;
  nextDueDate: CalendarDate;
  autopayPaymentMethod: string | null;
  gateCode: { uuid: string; code: string };
  services: readonly ExistingService[];
  vehicles: readonly ExistingVehicle[];
  coverageEnrollments: readonly ExistingCoverageEnrollment[];
}

const midnightUtc = (date: CalendarDate | null): string | null => (date === null ? null : `${date}T00:00:00Z`);

/**
 * Writes the rentals with their services, vehicles, coverage history and gate codes, a statement per table (rows as
 * JSON read by the table's own row type, so a column the table lacks fails here), then lets their units. The caller
 * holds the units (a seed's or an import's transaction) and posts each rental's ledger.
 */
export async function importRentals(db: EntityManager, rentals: readonly ExistingRental[]): Promise<void> {
  if (rentals.length === 0) return;
  await insertJson(
    db,
    'rental_records',
    rentals.map((r) => ({
      uuid: r.uuid,
      portfolio_uuid: r.portfolioUuid,
      facility_uuid: r.facilityUuid,
      unit_uuid: r.unitUuid,
      unit_group_uuid: r.unitGroupUuid,
      person_uuid: r.personUuid,
      lead_uuid: r.leadUuid,
      rent_in_pennies: r.rentInPennies,
      billing_day_of_month: billingDayFor(r.startDate),
      next_due_date: r.nextDueDate,
      start_date: r.startDate,
      autopay_payment_method: r.autopayPaymentMethod,
    })),
  );
  await insertJson(
    db,
    'rental_services',
    rentals.flatMap((r) =>
      r.services.map((s) => ({
        uuid: s.uuid,
        rental_record_uuid: r.uuid,
        item_type_uuid: s.itemTypeUuid,
        description: s.description,
        amount_in_pennies: s.amountInPennies,
        fee_type: s.feeType,
        start_date: s.startDate,
        end_date: s.endDate ?? null,
      })),
    ),
  );
  await insertJson(
    db,
    'vehicles',
    rentals.flatMap((r) =>
      r.vehicles.map((v) => ({
        uuid: v.uuid,
        facility_uuid: r.facilityUuid,
        rental_record_uuid: r.uuid,
        type: v.type,
        make: v.make,
        model: v.model,
        license_plate_number: v.licensePlateNumber,
        vin: v.vin,
      })),
    ),
  );
  await insertJson(
    db,
    'coverage_enrollments',
    rentals.flatMap((r) =>
      r.coverageEnrollments.map((e) => ({
        uuid: e.uuid,
        facility_uuid: r.facilityUuid,
        rental_record_uuid: r.uuid,
        coverage_uuid: e.coverageUuid,
        premium_in_pennies: e.premiumInPennies,
        coverage_amount_in_pennies: e.coverageAmountInPennies,
        start_date: midnightUtc(e.startDate),
        end_date: midnightUtc(e.endDate),
        partner_coverage_id: e.partnerCoverageId,
      })),
    ),
  );
  await insertJson(
    db,
    'gate_codes',
    rentals.map((r) => ({ uuid: r.gateCode.uuid, facility_uuid: r.facilityUuid, rental_record_uuid: r.uuid, code: r.gateCode.code })),
  );
  for (const rental of rentals) await setUnitStatus(db, rental.unitUuid, 'occupied');
}

type Table = 'rental_records' | 'rental_services' | 'vehicles' | 'coverage_enrollments' | 'gate_codes';

/** The rows' keys are the table's columns; the others take their defaults. */
async function insertJson(db: EntityManager, table: Table, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  await query(db, sql<never, [string]>(insertStatement(table, Object.keys(rows[0]).join(', '))), [JSON.stringify(rows)]);
}

function insertStatement(table: Table, columns: string): string {
  const from = `SELECT ${columns} FROM jsonb_populate_recordset`;
  switch (table) {
    case 'rental_records':
      return `INSERT INTO rental_records (${columns}) ${from}(NULL::rental_records, $1::jsonb)`;
    case 'rental_services':
      return `INSERT INTO rental_services (${columns}) ${from}(NULL::rental_services, $1::jsonb)`;
    case 'vehicles':
      return `INSERT INTO vehicles (${columns}) ${from}(NULL::vehicles, $1::jsonb)`;
    case 'coverage_enrollments':
      return `INSERT INTO coverage_enrollments (${columns}) ${from}(NULL::coverage_enrollments, $1::jsonb)`;
    case 'gate_codes':
      return `INSERT INTO gate_codes (${columns}) ${from}(NULL::gate_codes, $1::jsonb)`;
  }
}
