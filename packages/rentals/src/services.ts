import type { EntityManager } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';

const INSERT_SERVICE = sql<never, [string, string, string, number, string, CalendarDate]>(
  `INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     VALUES ($1, $2, $3, $4, $5, $6)`,
);
const END_SERVICE = sql<never, [string, CalendarDate]>('UPDATE rental_services SET end_date = $2 WHERE uuid = $1');

/** A recurring service of an item type, billed with the rent from its start date. */
export interface NewService {
  itemTypeUuid: string;
  description: string;
  amountInPennies: number;
  feeType: string;
  startDate: CalendarDate;
}

export async function addService(db: EntityManager, rentalRecordUuid: string, service: NewService): Promise<void> {
  await query(db, INSERT_SERVICE, [rentalRecordUuid, service.itemTypeUuid, service.description, service.amountInPennies, service.feeType, service.startDate]);
}

/** Ended, not deleted: the rental's service history stays. Ending on a day means not billed from that day. */
export async function endService(db: EntityManager, serviceUuid: string, endDate: CalendarDate): Promise<void> {
  await query(db, END_SERVICE, [serviceUuid, endDate]);
}
