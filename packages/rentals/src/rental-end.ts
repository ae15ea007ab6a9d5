import type { EntityManager } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { setUnitStatus } from '@storage/unit-occupancy';

/** A rental to end and the day it ends (the facility's local date). */
export interface RentalEnd {
  rentalRecordUuid: string;
  unitUuid: string;
  endDate: CalendarDate;
}

/*
 * One round trip for the rental's own rows. Services ending after the end date end with it; coverage ends now
 * (its end is a moment). The balance is left alone: what the tenant still owes, or is owed, outlives the rental.
 */
const END_RENTAL = sql<unknown, [string, CalendarDate]>(`
WITH rental AS (
  UPDATE rental_records SET status = 'MOVED_OUT', end_date = $2, updated_at = now() WHERE uuid = $1
), services AS (
  UPDATE rental_services SET end_date = $2 WHERE rental_record_uuid = $1 AND (end_date IS NULL OR end_date > $2)
), coverage AS (
  UPDATE coverage_enrollments SET end_date = now(), updated_at = now() WHERE rental_record_uuid = $1 AND end_date IS NULL
), gate AS (
  DELETE FROM gate_codes WHERE rental_record_uuid = $1
)
SELECT 1`);

/**
 * Moves the tenant out, the same way for every caller (the api's move-out and transfer, auction completion): the
 * rental MOVED_OUT on `endDate`, its services and coverage ended, its gate code removed (so operation 14 answers
 * 404), the unit vacant and its group repriced. The caller holds the rental's lock, in the transaction that emits
 * `moved-out` (or `transfer`) after this.
 */
export async function endRental(db: EntityManager, rental: RentalEnd): Promise<void> {
  await query(db, END_RENTAL, [rental.rentalRecordUuid, rental.endDate]);
  await setUnitStatus(db, rental.unitUuid, 'vacant');
}
