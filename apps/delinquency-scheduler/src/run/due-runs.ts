import { addDays, type CalendarDate } from '@storage/domain';
import { query, sql, type Queryable } from '@storage/persistence';

/** A facility whose business dates from `from` through `through` have not run yet. */
export interface DueRun {
  facilityUuid: string;
  from: CalendarDate;
  through: CalendarDate;
}

const FACILITY_DATES = sql<{ facility_uuid: string; today: string; last_completed: string | null }, [now: string]>(
  `SELECT f.uuid AS facility_uuid, ($1::timestamptz AT TIME ZONE f.time_zone)::date::text AS today,
            (SELECT max(r.business_date)::text FROM delinquency_runs r
              WHERE r.facility_uuid = f.uuid AND r.completed_at IS NOT NULL) AS last_completed
       FROM facilities f
      ORDER BY f.uuid`,
);

/**
 * Facilities that reached a business date (their local date at `now`) not yet run: from the day after the
 * last completed run through today, so days missed during downtime run in order; today alone for a
 * facility that never ran.
 */
export async function dueRuns(db: Queryable, now: Date): Promise<DueRun[]> {
  const rows = await query(db, FACILITY_DATES, [now.toISOString()]);
  return rows
    .filter((row) => row.last_completed === null || row.last_completed < row.today)
    .map((row) => ({
      facilityUuid: row.facility_uuid,
      from: row.last_completed === null ? row.today : addDays(row.last_completed, 1),
      through: row.today,
    }));
}
