import { DEFAULT_DELINQUENCY_SCHEDULE, delinquencyScheduleSchema, type DelinquencySchedule } from '@storage/domain';
import { query, sql, type Queryable } from '@storage/persistence';

export interface FacilitySchedule {
  facilityUuid: string;
  schedule: DelinquencySchedule;
  /** True when the facility has no schedule of its own. */
  isDefault: boolean;
}

const SCHEDULE = sql<DelinquencySchedule, [string]>(
  `SELECT grace_days AS "graceDays", overlock_day AS "overlockDay", lien_day AS "lienDay", auction_day AS "auctionDay",
          late_fee_in_pennies AS "lateFeeInPennies"
     FROM delinquency_schedules WHERE facility_uuid = $1`,
);

/** A facility's delinquency schedule, the documented defaults when it has none. */
export async function facilitySchedule(db: Queryable, facilityUuid: string): Promise<FacilitySchedule> {
  const [own] = await query(db, SCHEDULE, [facilityUuid]);
  // A stored schedule is checked like any input: a bad row must stop the run, not skip stages.
  return own
    ? { facilityUuid, schedule: delinquencyScheduleSchema.parse(own), isDefault: false }
    : { facilityUuid, schedule: { ...DEFAULT_DELINQUENCY_SCHEDULE }, isDefault: true };
}

/**
 * Gives the facility its own schedule (checked by the domain's rule: stages in order), or keeps it when it is
 * already this one; true when a row was written. The caller checks that the facility is its.
 */
const SAVE_SCHEDULE = sql<{ facility_uuid: string }, [string, number, number, number, number, number]>(
  `INSERT INTO delinquency_schedules AS s (facility_uuid, grace_days, overlock_day, lien_day, auction_day, late_fee_in_pennies)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (facility_uuid) DO UPDATE SET grace_days = EXCLUDED.grace_days, overlock_day = EXCLUDED.overlock_day, lien_day = EXCLUDED.lien_day,
            auction_day = EXCLUDED.auction_day, late_fee_in_pennies = EXCLUDED.late_fee_in_pennies, updated_at = now()
      WHERE (s.grace_days, s.overlock_day, s.lien_day, s.auction_day, s.late_fee_in_pennies)
            IS DISTINCT FROM (EXCLUDED.grace_days, EXCLUDED.overlock_day, EXCLUDED.lien_day, EXCLUDED.auction_day, EXCLUDED.late_fee_in_pennies)
     RETURNING facility_uuid`,
);

export async function saveFacilitySchedule(db: Queryable, facilityUuid: string, schedule: DelinquencySchedule): Promise<boolean> {
  const { graceDays, overlockDay, lienDay, auctionDay, lateFeeInPennies } = delinquencyScheduleSchema.parse(schedule);
  const written = await query(db, SAVE_SCHEDULE, [facilityUuid, graceDays, overlockDay, lienDay, auctionDay, lateFeeInPennies]);
  return written.length > 0;
}
