import { addDays, DEFAULT_DELINQUENCY_SCHEDULE } from '@storage/domain';
import { DelinquencyService } from '@storage/delinquency';
import { OutboxPublisher } from '@storage/messaging';
import type { DataSource } from 'typeorm';
import { owe } from './ledger';

export interface RentalInAuction {
  uuid: string;
  facility: string;
  /** The facility's calendar day now. */
  today: string;
}

/** Brings an active rental to AUCTION with the scheduler's own service: 61 days past due today. */
export async function bringToAuction(db: DataSource, rentalUuid: string): Promise<RentalInAuction> {
  const [row]: RentalInAuction[] = await db.query(
    `SELECT r.uuid, r.facility_uuid AS facility, (now() AT TIME ZONE f.time_zone)::date::text AS today
       FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid WHERE r.uuid = $1`,
    [rentalUuid],
  );
  await owe(db, row.uuid, 9000, addDays(row.today, -61));
  const service = new DelinquencyService(db, new OutboxPublisher('test'));
  while ((await service.advance(row.uuid, row.today, DEFAULT_DELINQUENCY_SCHEDULE)) !== null);
  return row;
}
