import type { EntityManager } from 'typeorm';
import { billingDayFor } from '@storage/domain';
import { setUnitStatus } from '@storage/unit-occupancy';
import { issueGateCode } from '../rentals/gate-codes';
import type { LeaseTerms } from './lease-terms';

/*
 * A vacant unit of the group, locked. SKIP LOCKED: a unit another signing is taking is passed over, so
 * two leads racing for the last unit do not queue; the loser finds none and is refused at once.
 */
const CLAIM_UNIT_SQL = `
SELECT uuid FROM units WHERE unit_group_uuid = $1 AND status = 'vacant'
 ORDER BY name, uuid LIMIT 1
   FOR UPDATE SKIP LOCKED`;

export async function claimVacantUnit(db: EntityManager, unitGroupUuid: string): Promise<string | null> {
  const rows: { uuid: string }[] = await db.query(CLAIM_UNIT_SQL, [unitGroupUuid]);
  return rows[0]?.uuid ?? null;
}

/**
 * The tenant's rental on the claimed unit: the lease's rent, billed on the start day each month (capped at 28),
 * the default coverage enrolled and billed as a service, a gate code, the unit occupied. Its first period is due
 * today: billing it (`billRentals`) moves the next due date on. Returns its uuid.
 */
export async function openRental(db: EntityManager, terms: LeaseTerms, unitUuid: string): Promise<string> {
  const startDate = terms.facilityToday;
  const billingDay = billingDayFor(startDate);
  const rows: { uuid: string }[] = await db.query(
    `INSERT INTO rental_records (portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, lead_uuid, rent_in_pennies,
                                 balance_in_pennies, billing_day_of_month, next_due_date, start_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10) RETURNING uuid`,
    [terms.portfolioUuid, terms.facilityUuid, unitUuid, terms.unitGroupUuid, terms.personUuid, terms.leadUuid, terms.rentInPennies, billingDay,
      startDate, startDate],
  );
  const rentalUuid = rows[0].uuid;
  const coverage = terms.coverage;
  if (coverage !== null) {
    await db.query(
      `INSERT INTO coverage_enrollments (facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, start_date)
       VALUES ($1, $2, $3, $4, $5, now())`,
      [terms.facilityUuid, rentalUuid, coverage.coverageUuid, coverage.premiumInPennies, coverage.coverageAmountInPennies],
    );
    await db.query(
      `INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
       VALUES ($1, $2, $3, $4, 'FIXED_AMOUNT', $5)`,
      [rentalUuid, coverage.itemTypeUuid, coverage.itemTypeName, coverage.premiumInPennies, startDate],
    );
  }
  await setUnitStatus(db, unitUuid, 'occupied');
  await issueGateCode(db, terms.facilityUuid, rentalUuid);
  return rentalUuid;
}
