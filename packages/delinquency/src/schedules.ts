import type { EntityManager } from 'typeorm';
import { DEFAULT_DELINQUENCY_SCHEDULE, delinquencyScheduleSchema, type DelinquencySchedule } from '@storage/domain';

export interface FacilitySchedule {
  facilityUuid: string;
  schedule: DelinquencySchedule;
  /** True when the facility has no schedule of its own. */
  isDefault: boolean;
}

/** A facility's delinquency schedule, the documented defaults when it has none. */
export async function facilitySchedule(db: Pick<EntityManager, 'query'>, facilityUuid: string): Promise<FacilitySchedule> {
  const rows: DelinquencySchedule[] = await db.query(
    `SELECT grace_days AS "graceDays", overlock_day AS "overlockDay", lien_day AS "lienDay", auction_day AS "auctionDay",
            late_fee_in_pennies AS "lateFeeInPennies"
       FROM delinquency_schedules WHERE facility_uuid = $1`,
    [facilityUuid],
  );
  const own = rows[0];
  // A stored schedule is checked like any input: a bad row must stop the run, not skip stages.
  return own
    ? { facilityUuid, schedule: delinquencyScheduleSchema.parse(own), isDefault: false }
    : { facilityUuid, schedule: { ...DEFAULT_DELINQUENCY_SCHEDULE }, isDefault: true };
}
