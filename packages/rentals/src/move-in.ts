import type { EntityManager } from 'typeorm';
import { billingDayFor, type CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { setUnitStatus } from '@storage/unit-occupancy';
import { issueGateCode } from './gate-codes';

const INSERT_RENTAL = sql<{ uuid: string }, [string, string, string, string, string, string, number, number, CalendarDate, CalendarDate]>(
  `INSERT INTO rental_records (portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, lead_uuid, rent_in_pennies,
                                 balance_in_pennies, billing_day_of_month, next_due_date, start_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10) RETURNING uuid`,
);
const ENROLL_COVERAGE = sql<never, [string, string, string, number, number]>(
  `INSERT INTO coverage_enrollments (facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, start_date)
       VALUES ($1, $2, $3, $4, $5, now())`,
);
const BILL_COVERAGE = sql<never, [string, string, string, number, CalendarDate]>(
  `INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
       VALUES ($1, $2, $3, $4, 'FIXED_AMOUNT', $5)`,
);

/** The facility's default coverage a new rental is enrolled in, billed as a service of its item type. */
export interface EnrolledCoverage {
  coverageUuid: string;
  premiumInPennies: number;
  coverageAmountInPennies: number;
  itemTypeUuid: string;
  itemTypeName: string;
}

/** A signed lease's tenancy on a unit the caller claimed (locked). */
export interface MoveIn {
  portfolioUuid: string;
  facilityUuid: string;
  unitUuid: string;
  unitGroupUuid: string;
  personUuid: string;
  leadUuid: string;
  rentInPennies: number;
  /** The facility's today: the start date, and the first period's due date. */
  startDate: CalendarDate;
  coverage: EnrolledCoverage | null;
}

/**
 * The tenant's rental on the claimed unit: the lease's rent, billed on the start day each month (capped at 28),
 * the coverage enrolled and billed as a service, a gate code, the unit occupied. Its first period is due on the
 * start date: billing it (`billRentals`) moves the next due date on. Returns the rental's uuid.
 */
export async function moveIn(db: EntityManager, tenancy: MoveIn): Promise<string> {
  const { startDate, coverage } = tenancy;
  const rows = await query(db, INSERT_RENTAL, [
    tenancy.portfolioUuid,
    tenancy.facilityUuid,
    tenancy.unitUuid,
    tenancy.unitGroupUuid,
    tenancy.personUuid,
    tenancy.leadUuid,
    tenancy.rentInPennies,
    billingDayFor(startDate),
    startDate,
    startDate,
  ]);
  const rentalUuid = rows[0].uuid;
  if (coverage !== null) {
    await query(db, ENROLL_COVERAGE, [tenancy.facilityUuid, rentalUuid, coverage.coverageUuid, coverage.premiumInPennies, coverage.coverageAmountInPennies]);
    await query(db, BILL_COVERAGE, [rentalUuid, coverage.itemTypeUuid, coverage.itemTypeName, coverage.premiumInPennies, startDate]);
  }
  await setUnitStatus(db, tenancy.unitUuid, 'occupied');
  await issueGateCode(db, tenancy.facilityUuid, rentalUuid);
  return rentalUuid;
}
