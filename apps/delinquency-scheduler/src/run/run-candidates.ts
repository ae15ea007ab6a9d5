import type { CalendarDate, DelinquencySchedule } from '@storage/domain';
import { query, sql, type Queryable } from '@storage/persistence';

/*
 * The rentals of one facility that a business date may change, in one set-based statement: active, with a
 * charge open past its grace days, and past the day of the stage after theirs (counted from the episode's due
 * date, or the oldest open charge's before an episode starts); or delinquent with nothing past its grace days
 * any more (`isClearedOn`). PAUSED and WRITTEN_OFF never qualify. The domain state machine decides again under
 * each rental's lock; this only narrows the set.
 */
const CANDIDATES = sql<
  { uuid: string },
  [facilityUuid: string, businessDate: CalendarDate, overdueDay: number, overlockDay: number, lienDay: number, auctionDay: number]
>(`
SELECT r.uuid
  FROM rental_records r
  LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
 WHERE r.facility_uuid = $1 AND r.status = 'ACTIVE'
   AND (d.last_business_date IS NULL OR d.last_business_date <= $2::date)
   AND CASE
         WHEN r.oldest_open_due_on IS NULL OR r.oldest_open_due_on + $3::int > $2::date THEN d.status IN ('OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION')
         ELSE COALESCE(d.past_due_since, r.oldest_open_due_on) + CASE COALESCE(d.status, 'CURRENT')
                WHEN 'CURRENT' THEN $3::int WHEN 'PAID' THEN $3::int
                WHEN 'OVERDUE' THEN $4::int WHEN 'OVERLOCK' THEN $5::int WHEN 'LIEN' THEN $6::int
              END <= $2::date
       END
 ORDER BY r.uuid`);

export async function runCandidates(db: Queryable, facilityUuid: string, businessDate: CalendarDate, schedule: DelinquencySchedule): Promise<string[]> {
  const rows = await query(db, CANDIDATES, [facilityUuid, businessDate, schedule.graceDays + 1, schedule.overlockDay, schedule.lienDay, schedule.auctionDay]);
  return rows.map((row) => row.uuid);
}
