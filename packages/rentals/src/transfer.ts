import type { EntityManager } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { setUnitStatus } from '@storage/unit-occupancy';
import { endRental } from './rental-end';

const INSERT_TRANSFERRED_RENTAL = sql<{ uuid: string }, [string, string, string, number, CalendarDate]>(
  `INSERT INTO rental_records (portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, lead_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date, tenancy_start_date, autopay_payment_method)
     SELECT portfolio_uuid, facility_uuid, $2, $3, person_uuid, lead_uuid, $4, billing_day_of_month, next_due_date,
            $5, coalesce(tenancy_start_date, start_date), autopay_payment_method
       FROM rental_records WHERE uuid = $1
     RETURNING uuid`,
);
const CARRY_OVER_SERVICES = sql<never, [string, string, CalendarDate]>(
  `INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     SELECT $2, item_type_uuid, description, amount_in_pennies, fee_type, $3 FROM rental_services
      WHERE rental_record_uuid = $1 AND (end_date IS NULL OR end_date > $3)
      ORDER BY start_date, uuid`,
);
const CARRY_OVER_COVERAGE = sql<never, [string, string]>(
  `INSERT INTO coverage_enrollments (facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, start_date, partner_coverage_id)
     SELECT facility_uuid, $2, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies, now(), partner_coverage_id
       FROM coverage_enrollments WHERE rental_record_uuid = $1 AND end_date IS NULL`,
);
const MOVE_VEHICLES = sql<never, [string, string]>('UPDATE vehicles SET rental_record_uuid = $2 WHERE rental_record_uuid = $1');
const MOVE_GATE_CODE = sql<never, [string, string]>('UPDATE gate_codes SET rental_record_uuid = $2 WHERE rental_record_uuid = $1');

/** A rental moving to a vacant unit of its facility (both locked by the caller). */
export interface Transfer {
  rentalRecordUuid: string;
  unitUuid: string;
  /** The vacant unit, its group, and the rent there (the group's current web rate). */
  toUnitUuid: string;
  toUnitGroupUuid: string;
  rentInPennies: number;
  /** The facility's today: the new rental starts, the old one ends. */
  on: CalendarDate;
}

/**
 * The tenancy on the new unit: a new rental keeping the tenant's billing (day, next due date, tenancy start,
 * autopay), with what belongs to the tenant rather than the unit (running services and coverage, restarting there
 * today; vehicles; the gate code); the old rental ended as a move-out ends it, the new unit occupied. The rental's
 * part of a transfer: the api's transfer use case (`moveTenancy`) moves the balance and the promotions with it, in
 * the same transaction. Returns the new rental's uuid.
 */
export async function transfer(db: EntityManager, move: Transfer): Promise<string> {
  const rows = await query(db, INSERT_TRANSFERRED_RENTAL, [move.rentalRecordUuid, move.toUnitUuid, move.toUnitGroupUuid, move.rentInPennies, move.on]);
  const newUuid = rows[0].uuid;
  await carryOver(db, move.rentalRecordUuid, newUuid, move.on);
  await endRental(db, { rentalRecordUuid: move.rentalRecordUuid, unitUuid: move.unitUuid, endDate: move.on });
  await setUnitStatus(db, move.toUnitUuid, 'occupied');
  return newUuid;
}

async function carryOver(db: EntityManager, oldUuid: string, newUuid: string, on: CalendarDate): Promise<void> {
  await query(db, CARRY_OVER_SERVICES, [oldUuid, newUuid, on]);
  await query(db, CARRY_OVER_COVERAGE, [oldUuid, newUuid]);
  await query(db, MOVE_VEHICLES, [oldUuid, newUuid]);
  // The tenant keeps their code: it moves to the new rental (same facility), before the old rental's end removes its code.
  await query(db, MOVE_GATE_CODE, [oldUuid, newUuid]);
}
