import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { addDays, type CalendarDate } from '@storage/domain';
import { BusinessDayAdvancer, facilitySchedule } from '@storage/delinquency';
import { FacilityLock } from './facility-lock';
import { runCandidates } from './run-candidates';

export const RUN_CONCURRENCY = Symbol('RUN_CONCURRENCY');

export interface RunProgress {
  facilityUuid: string;
  businessDate: CalendarDate;
  candidates: number;
  done: number;
  transitions: number;
}

export interface RunResult extends RunProgress {
  /** True when another run held the facility and this one did not wait. */
  skipped: boolean;
}

export interface RunOptions {
  /** Wait for a run of the same facility elsewhere to finish (the CLI) instead of leaving it (the timer). */
  wait: boolean;
  onProgress?: (progress: RunProgress) => void;
}

/** A rental whose transition failed; the run is then not completed, so its date is tried again. */
export class RunFailed extends Error {
  override readonly name = 'RunFailed';
  constructor(
    readonly facilityUuid: string,
    readonly businessDate: CalendarDate,
    readonly failures: { rentalRecordUuid: string; error: unknown }[],
  ) {
    super(`${failures.length} rental(s) of facility ${facilityUuid} failed on ${businessDate}; first: ${String(failures[0]?.error)}`);
  }
}

const PROGRESS_EVERY = 1_000;

/** Runs business dates of facilities: candidates in one query, then each rental's transitions one transaction at a time. */
@Injectable()
export class BusinessDayRunner {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BusinessDayAdvancer) private readonly advancer: BusinessDayAdvancer,
    @Inject(RUN_CONCURRENCY) private readonly concurrency: number,
  ) {}

  /** The facility's dates from `from` through `through`, in order, under the facility's lock. */
  async runDates(facilityUuid: string, from: CalendarDate, through: CalendarDate, options: RunOptions): Promise<RunResult[]> {
    const lock = await FacilityLock.acquire(this.dataSource, facilityUuid, options.wait);
    if (lock === null) return [{ facilityUuid, businessDate: from, candidates: 0, done: 0, transitions: 0, skipped: true }];
    try {
      const results: RunResult[] = [];
      for (let date = from; date <= through; date = addDays(date, 1)) {
        results.push(await this.runLocked(facilityUuid, date, options));
      }
      return results;
    } finally {
      await lock.release();
    }
  }

  private async runLocked(facilityUuid: string, businessDate: CalendarDate, options: RunOptions): Promise<RunResult> {
    await this.dataSource.query(
      `INSERT INTO delinquency_runs (facility_uuid, business_date, started_at) VALUES ($1, $2, now())
       ON CONFLICT (facility_uuid, business_date) DO UPDATE SET started_at = now(), completed_at = NULL`,
      [facilityUuid, businessDate],
    );
    const { schedule } = await facilitySchedule(this.dataSource, facilityUuid);
    const candidates = await runCandidates(this.dataSource, facilityUuid, businessDate, schedule);
    const progress: RunProgress = { facilityUuid, businessDate, candidates: candidates.length, done: 0, transitions: 0 };
    const failures: { rentalRecordUuid: string; error: unknown }[] = [];
    let next = 0;
    // Each worker holds one connection for the run; concurrency stays below the pool size (the facility lock holds one).
    const worker = async (): Promise<void> => {
      const session = await this.advancer.worker();
      try {
        for (let index = next++; index < candidates.length; index = next++) {
          const rentalRecordUuid = candidates[index];
          try {
            // Several stages may be due (catch-up): one transaction each, until the date brings nothing more.
            const applied = await session.catchUp(rentalRecordUuid, businessDate, schedule);
            progress.transitions += applied;
          } catch (error) {
            failures.push({ rentalRecordUuid, error });
          }
          if (++progress.done % PROGRESS_EVERY === 0) options.onProgress?.({ ...progress });
        }
      } finally {
        await session.release();
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, this.concurrency), candidates.length) }, worker));
    options.onProgress?.({ ...progress });
    if (failures.length > 0) throw new RunFailed(facilityUuid, businessDate, failures);
    await this.dataSource.query(
      `UPDATE delinquency_runs SET completed_at = now(), transitions = transitions + $3 WHERE facility_uuid = $1 AND business_date = $2`,
      [facilityUuid, businessDate, progress.transitions],
    );
    return { ...progress, skipped: false };
  }
}
