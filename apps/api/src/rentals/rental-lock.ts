import { ConflictException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { lockRental, type RentalRef, type RentalStatus } from '@storage/rentals';
import { notFound } from '../common';

/** Which rental an operator action is about: the path's portfolio, facility and rental record. */
export interface RentalPath extends Required<RentalRef> {
  /** The `{portfolio}` path segment, which events name their portfolio by. */
  portfolioId: string;
}

/** An active rental, as an operator action reads it under the rental's lock. */
export interface ActiveRental {
  uuid: string;
  portfolioUuid: string;
  facilityUuid: string;
  unitUuid: string;
  unitGroupUuid: string;
  personUuid: string;
  leadUuid: string | null;
  rentInPennies: number;
  balanceInPennies: number;
  billingDayOfMonth: number;
  nextDueDate: CalendarDate;
  lastEventAt: Date | null;
  /** The calendar day at the facility now: the date of every change made today. */
  facilityToday: CalendarDate;
}

/*
 * Lifecycle actions take the rental's lock (`lockRental` of @storage/rentals, as the delinquency writers do), and
 * rent changes and payments write it only if unchanged since they read it (VersionedWrites), so the writers of one
 * rental take turns. The row is read by a statement after the lock: it sees what a writer the lock waited for
 * committed.
 */
const LOCKED = sql<ActiveRental & { status: RentalStatus }, [string, string, string]>(
  `
SELECT r.uuid, r.portfolio_uuid AS "portfolioUuid", r.facility_uuid AS "facilityUuid", r.unit_uuid AS "unitUuid",
       r.unit_group_uuid AS "unitGroupUuid", r.person_uuid AS "personUuid", r.lead_uuid AS "leadUuid",
       r.rent_in_pennies AS "rentInPennies", r.balance_in_pennies AS "balanceInPennies",
       r.billing_day_of_month AS "billingDayOfMonth", r.next_due_date::text AS "nextDueDate", r.last_event_at AS "lastEventAt",
       r.status, (now() AT TIME ZONE f.time_zone)::date::text AS "facilityToday"
  FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
 WHERE r.uuid = $1 AND r.facility_uuid = $2 AND r.portfolio_uuid = $3`,
  { prepared: 'api_locked_rental' },
);

/**
 * Locks the rental for an operator action. 404 when it is not a rental of this facility and portfolio
 * (the same answer either way), 409 when it has moved out.
 */
export async function lockActiveRental(db: EntityManager, ref: RentalPath): Promise<ActiveRental> {
  await lockRental(db, ref);
  return activeRental(await query(db, LOCKED, [ref.rentalRecordUuid, ref.facilityUuid, ref.portfolioUuid]), ref);
}

/** The rental row of `ref` read by its key, facility and portfolio: 404 when there is none, 409 when it has moved out. */
export function activeRental<Row extends { status: string }>(rows: Row[], ref: RentalPath): Row {
  const row = foundRental(rows, ref);
  if (row.status !== 'ACTIVE') throw new ConflictException(`Rental record ${ref.rentalRecordUuid} has moved out.`);
  return row;
}

/** The rental row of `ref`, moved out or not: 404 when there is none. */
export function foundRental<Row>(rows: Row[], ref: RentalPath): Row {
  const row = rows[0];
  if (row === undefined) throw notFound('Rental record', ref.rentalRecordUuid);
  return row;
}
