import type { EntityManager } from 'typeorm';
import type { BusinessDateInput, CalendarDate, DelinquencyState, PausableStatus, RentalDelinquencyStatus } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { lockRental, type RentalRef } from '@storage/rentals';
import { RentalNotFound } from './errors';

export interface DelinquencyRow {
  delinquencyUuid: string;
  status: RentalDelinquencyStatus;
  pausedFrom: PausableStatus | null;
  pastDueSince: CalendarDate | null;
  statusChangedOn: CalendarDate | null;
  lastBusinessDate: CalendarDate | null;
  lastEventAt: Date | null;
}

/** A rental row locked for the caller's transaction, with its delinquency (null: never delinquent). */
export interface LockedRental {
  rentalRecordUuid: string;
  facilityUuid: string;
  unitUuid: string;
  active: boolean;
  balanceInPennies: number;
  /** The due date of the rental's oldest charge not covered by payments (its ledger); null when none is open. */
  oldestOpenDueOn: CalendarDate | null;
  /** The calendar date at the facility now (its business date). */
  facilityToday: CalendarDate;
  delinquency: DelinquencyRow | null;
}

/** The columns a locked rental is read from, by both the per-rental writers and the business-day advancer. */
export interface LockedRentalRow {
  rental_record_uuid: string;
  facility_uuid: string;
  unit_uuid: string;
  rental_status: string;
  balance_in_pennies: number;
  oldest_open_due_on: string | null;
  facility_today: string;
  delinquency_uuid: string | null;
  delinquency_status: RentalDelinquencyStatus | null;
  paused_from: PausableStatus | null;
  past_due_since: string | null;
  status_changed_on: string | null;
  last_business_date: string | null;
  last_event_at: Date | null;
}

/*
 * Every writer of a rental's delinquency takes the rental's lock first (`lockRental` of @storage/rentals), so the
 * delinquency row needs no lock of its own and a payment recorded by the api waits for us, or we for it. The state
 * is read by a second statement: one that waited for the lock would still see the snapshot from before the
 * holder's commit (Postgres rechecks only the locked row, not the joined delinquency).
 */
const STATE = sql<LockedRentalRow, [string]>(`
SELECT r.uuid AS rental_record_uuid, r.facility_uuid, r.unit_uuid, r.status AS rental_status, r.balance_in_pennies, r.oldest_open_due_on::text AS oldest_open_due_on,
       (now() AT TIME ZONE f.time_zone)::date::text AS facility_today,
       d.delinquency_uuid, d.status AS delinquency_status, d.paused_from, d.past_due_since::text AS past_due_since,
       d.status_changed_on::text AS status_changed_on, d.last_business_date::text AS last_business_date, d.last_event_at
  FROM rental_records r
  JOIN facilities f ON f.uuid = r.facility_uuid
  LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
 WHERE r.uuid = $1`);

/** Takes the rental's lock and reads it with its delinquency: RentalNotFound when there is no such rental. */
export async function lockWithDelinquency(manager: EntityManager, ref: RentalRef): Promise<LockedRental> {
  if (!(await lockRental(manager, ref))) throw new RentalNotFound(ref.rentalRecordUuid);
  const [row] = await query(manager, STATE, [ref.rentalRecordUuid]);
  if (!row) throw new RentalNotFound(ref.rentalRecordUuid);
  return lockedRentalFromRow(row);
}

export function lockedRentalFromRow(row: LockedRentalRow): LockedRental {
  return {
    rentalRecordUuid: row.rental_record_uuid,
    facilityUuid: row.facility_uuid,
    unitUuid: row.unit_uuid,
    active: row.rental_status === 'ACTIVE',
    balanceInPennies: row.balance_in_pennies,
    oldestOpenDueOn: row.oldest_open_due_on,
    facilityToday: row.facility_today,
    delinquency:
      row.delinquency_uuid === null || row.delinquency_status === null
        ? null
        : {
            delinquencyUuid: row.delinquency_uuid,
            status: row.delinquency_status,
            pausedFrom: row.paused_from,
            pastDueSince: row.past_due_since,
            statusChangedOn: row.status_changed_on,
            lastBusinessDate: row.last_business_date,
            lastEventAt: row.last_event_at,
          },
  };
}

/** The rental's state for the domain state machine. */
export function delinquencyState(rental: LockedRental): DelinquencyState {
  return { status: rental.delinquency?.status ?? 'CURRENT', pausedFrom: rental.delinquency?.pausedFrom ?? null };
}

/** What the domain decides a business date's transitions from, but the schedule and the date. */
export function delinquencyInput(rental: LockedRental): Omit<BusinessDateInput, 'schedule' | 'businessDate'> {
  return { ...delinquencyState(rental), oldestOpenDueOn: rental.oldestOpenDueOn, episodePastDueSince: rental.delinquency?.pastDueSince ?? null };
}
