import type { EntityManager } from 'typeorm';
import { billingDayFor, type CalendarDate } from '@storage/domain';
import { query, sql, type Sql } from '@storage/persistence';
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

/** The columns an import writes, per table: each row given for a table has every one of them (else no compile). */
const RENTAL_RECORD_COLUMNS = [
  'uuid',
  'portfolio_uuid',
  'facility_uuid',
  'unit_uuid',
  'unit_group_uuid',
  'person_uuid',
  'lead_uuid',
  'rent_in_pennies',
  'billing_day_of_month',
  'next_due_date',
  'start_date',
  'autopay_payment_method',
] as const;
const SERVICE_COLUMNS = ['uuid', 'rental_record_uuid', 'item_type_uuid', 'description', 'amount_in_pennies', 'fee_type', 'start_date', 'end_date'] as const;
const VEHICLE_COLUMNS = ['uuid', 'facility_uuid', 'rental_record_uuid', 'type', 'make', 'model', 'license_plate_number', 'vin'] as const;
const COVERAGE_COLUMNS = [
  'uuid',
  'facility_uuid',
  'rental_record_uuid',
  'coverage_uuid',
  'premium_in_pennies',
  'coverage_amount_in_pennies',
  'start_date',
  'end_date',
  'partner_coverage_id',
] as const;
const GATE_CODE_COLUMNS = ['uuid', 'facility_uuid', 'rental_record_uuid', 'code'] as const;

/*
 * Each table's rows in one statement, as JSON read by the table's own row type (jsonb_populate_recordset), so a
 * value of the wrong type fails here; the columns left out take their defaults.
 */
const INSERT_RENTAL_RECORDS = sql<never, [rows: string]>(
  `INSERT INTO rental_records (${RENTAL_RECORD_COLUMNS.join(', ')})
   SELECT ${RENTAL_RECORD_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::rental_records, $1::jsonb)`,
);
const INSERT_SERVICES = sql<never, [rows: string]>(
  `INSERT INTO rental_services (${SERVICE_COLUMNS.join(', ')})
   SELECT ${SERVICE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::rental_services, $1::jsonb)`,
);
const INSERT_VEHICLES = sql<never, [rows: string]>(
  `INSERT INTO vehicles (${VEHICLE_COLUMNS.join(', ')}) SELECT ${VEHICLE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::vehicles, $1::jsonb)`,
);
const INSERT_COVERAGE_ENROLLMENTS = sql<never, [rows: string]>(
  `INSERT INTO coverage_enrollments (${COVERAGE_COLUMNS.join(', ')})
   SELECT ${COVERAGE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::coverage_enrollments, $1::jsonb)`,
);
const INSERT_GATE_CODES = sql<never, [rows: string]>(
  `INSERT INTO gate_codes (${GATE_CODE_COLUMNS.join(', ')}) SELECT ${GATE_CODE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::gate_codes, $1::jsonb)`,
);

/** A row of the table whose columns are `Columns`. */
type RowOf<Columns extends readonly string[]> = Record<Columns[number], unknown>;

/** Inserts the rows, each with every one of the statement's columns (else no compile), and only those sent. */
async function insertRows<Columns extends readonly string[]>(
  db: EntityManager,
  statement: Sql<never, [rows: string]>,
  columns: Columns,
  rows: readonly RowOf<Columns>[],
): Promise<void> {
  if (rows.length > 0) await query(db, statement, [JSON.stringify(rows, [...columns])]);
}

/**
 * Writes the rentals with their services, vehicles, coverage history and gate codes, a statement per table (rows as
 * JSON read by the table's own row type, so a value of the wrong type fails here), then lets their units. The caller
 * holds the units (a seed's or an import's transaction) and posts each rental's ledger.
 */
export async function importRentals(db: EntityManager, rentals: readonly ExistingRental[]): Promise<void> {
  if (rentals.length === 0) return;
  await insertRows(
    db,
    INSERT_RENTAL_RECORDS,
    RENTAL_RECORD_COLUMNS,
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
  await insertRows(
    db,
    INSERT_SERVICES,
    SERVICE_COLUMNS,
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
  await insertRows(
    db,
    INSERT_VEHICLES,
    VEHICLE_COLUMNS,
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
  await insertRows(
    db,
    INSERT_COVERAGE_ENROLLMENTS,
    COVERAGE_COLUMNS,
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
  await insertRows(
    db,
    INSERT_GATE_CODES,
    GATE_CODE_COLUMNS,
    rentals.map((r) => ({ uuid: r.gateCode.uuid, facility_uuid: r.facilityUuid, rental_record_uuid: r.uuid, code: r.gateCode.code })),
  );
  for (const rental of rentals) await setUnitStatus(db, rental.unitUuid, 'occupied');
}
