import type { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import type { BusinessDayRunner, RunProgress, RunResult } from './business-day-runner';

const FACILITIES = sql<{ uuid: string }, [facilityUuid: string | null]>('SELECT uuid FROM facilities WHERE $1::uuid IS NULL OR uuid = $1 ORDER BY uuid');

/**
 * Runs one business date for every facility (or one), waiting for runs under way elsewhere; what the
 * CLI, the tests and the benchmark drive. Each rental is run once.
 */
export async function runBusinessDate(
  dataSource: DataSource,
  runner: BusinessDayRunner,
  options: { asOf: CalendarDate; facilityUuid?: string; onProgress?: (progress: RunProgress) => void },
): Promise<RunResult[]> {
  const rows = await query(dataSource, FACILITIES, [options.facilityUuid ?? null]);
  if (options.facilityUuid !== undefined && rows.length === 0) throw new Error(`Facility ${options.facilityUuid} not found.`);
  const runOptions = { wait: true, ...(options.onProgress ? { onProgress: options.onProgress } : {}) };
  const runs = rows.map(({ uuid }) => ({ facilityUuid: uuid, from: options.asOf, through: options.asOf }));
  return (await runner.runFacilities(runs, runOptions)).flat();
}
