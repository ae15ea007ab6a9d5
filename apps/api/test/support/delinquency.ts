import { addDays, DEFAULT_DELINQUENCY_SCHEDULE } from '@storage/domain';
import { BusinessDayAdvancer } from '@storage/delinquency';
import type { DataSource } from 'typeorm';
import { owe } from './ledger';
import { query, sql } from '@storage/persistence';

export interface RentalInAuction {
  uuid: string;
  facility: string;
  /** The facility's calendar day now. */
  today: string;
}

/** Brings an active rental to AUCTION with the scheduler's own business-day run: 61 days past due today. */
export async function bringToAuction(db: DataSource, rentalUuid: string): Promise<RentalInAuction> {
  const [row] = await query(
    db,
    sql<RentalInAuction>(`SELECT r.uuid, r.facility_uuid AS facility, (now() AT TIME ZONE f.time_zone)::date::text AS today
       FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid WHERE r.uuid = $1`),
    [rentalUuid],
  );
  await owe(db, row.uuid, 9000, addDays(row.today, -61));
  await advanceDelinquency(db, row.uuid, row.today);
  return row;
}

/** Every transition `businessDate` brings the rental, written as the scheduler's business-day run writes them. */
export async function advanceDelinquency(db: DataSource, rentalUuid: string, businessDate: string): Promise<void> {
  const worker = await new BusinessDayAdvancer(db, 'test').worker();
  try {
    const { failures } = await worker.advance([rentalUuid], businessDate, DEFAULT_DELINQUENCY_SCHEDULE);
    const [failure] = failures;
    if (failure !== undefined) throw failure.error;
  } finally {
    await worker.release();
  }
}
