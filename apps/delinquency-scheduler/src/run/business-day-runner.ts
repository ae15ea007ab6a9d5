import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { addDays, type CalendarDate } from '@storage/domain';
import { BusinessDayAdvancer, facilitySchedule } from '@storage/delinquency';
import { query, sql } from '@storage/persistence';
import { AutopayDay } from '../autopay/autopay-day';
import { EmbeddedPaymentPort } from '../autopay/embedded-payment-port';
import { BillingDay } from './billing-day';
import type { DueRun } from './due-runs';
import { FacilityLock } from './facility-lock';
import { runCandidates } from './run-candidates';

/** The facility's run of the date begun (again, after a failed or interrupted one). */
const RUN_STARTED = sql<never, [facilityUuid: string, businessDate: CalendarDate]>(
  `INSERT INTO delinquency_runs (facility_uuid, business_date, started_at) VALUES ($1, $2, now())
       ON CONFLICT (facility_uuid, business_date) DO UPDATE SET started_at = now(), completed_at = NULL`,
);

const RUN_COMPLETED = sql<never, [facilityUuid: string, businessDate: CalendarDate, transitions: number]>(
  `UPDATE delinquency_runs SET completed_at = now(), transitions = transitions + $3 WHERE facility_uuid = $1 AND business_date = $2`,
);

export const RUN_CONCURRENCY = Symbol('RUN_CONCURRENCY');

export interface RunProgress {
  facilityUuid: string;
  businessDate: CalendarDate;
  /** Rentals billed (their periods due posted) and the charges posted, before delinquency. */
  billed: number;
  charges: number;
  /** Autopay charges the payment port approved and declined, after billing. */
  autopayApproved: number;
  autopayDeclined: number;
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

/**
 * Facilities run side by side, each with its share of the workers: one's candidate query and last rentals
 * overlap the other's work instead of leaving connections idle.
 */
const FACILITIES_AT_ONCE = 2;

/**
 * At most this many rentals are read and decided at once; fewer when a facility has few, so every worker gets some.
 * Not fewer than that: each batch is planned anew (its statements read tables the run fills), and a facility's
 * candidates cut in four chunks per worker cost the worst day at 100,000 rentals 40 % more PostgreSQL CPU than one
 * chunk per worker (docs/benchmarks/delinquency-scheduler.md).
 */
const MAX_CHUNK = 32;

/**
 * Runs business dates of facilities: first billing (the charges due that day), then autopay (what came due, charged
 * through the payment port), then delinquency (candidates in one query, then each rental's transitions one
 * transaction at a time), so a charge due today counts at once.
 */
@Injectable()
export class BusinessDayRunner {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BusinessDayAdvancer) private readonly advancer: BusinessDayAdvancer,
    @Inject(BillingDay) private readonly billing: BillingDay,
    @Inject(RUN_CONCURRENCY) private readonly concurrency: number,
    // Built without Nest (the CLI, the bench, tests), the runner charges through the embedded port, as the app binds it.
    @Inject(AutopayDay) private readonly autopay: AutopayDay = new AutopayDay(dataSource, new EmbeddedPaymentPort()),
  ) {}

  /**
   * Each facility's dates (see runDates), FACILITIES_AT_ONCE facilities at a time, sharing the workers.
   * Results are in the order of `runs` (none for a facility that failed). A failure goes to `onFailure`
   * when given, and the other facilities still run; without it no further facility starts, and the first
   * error is thrown once the facilities under way have finished. No facility starts once `stopping` says so.
   */
  async runFacilities(
    runs: readonly DueRun[],
    options: RunOptions & { onFailure?: (run: DueRun, error: unknown) => void; stopping?: () => boolean },
  ): Promise<RunResult[][]> {
    const results: RunResult[][] = [];
    const workers = Math.max(1, Math.floor(this.concurrency / FACILITIES_AT_ONCE));
    let next = 0;
    let failed = false;
    const lane = async (): Promise<void> => {
      for (let index = next++; index < runs.length && !failed && options.stopping?.() !== true; index = next++) {
        const run = runs[index];
        if (run === undefined) continue;
        try {
          results[index] = await this.runDates(run.facilityUuid, run.from, run.through, options, workers);
        } catch (error) {
          if (options.onFailure === undefined) {
            failed = true;
            throw error;
          }
          options.onFailure(run, error);
        }
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(FACILITIES_AT_ONCE, runs.length) }, lane));
    const rejected = lanes.find((settled): settled is PromiseRejectedResult => settled.status === 'rejected');
    if (rejected !== undefined) throw rejected.reason;
    return results.filter((result) => result !== undefined);
  }

  /** The facility's dates from `from` through `through`, in order, under the facility's lock. */
  async runDates(
    facilityUuid: string,
    from: CalendarDate,
    through: CalendarDate,
    options: RunOptions,
    workers: number = this.concurrency,
  ): Promise<RunResult[]> {
    const lock = await FacilityLock.acquire(this.dataSource, facilityUuid, options.wait);
    if (lock === null)
      return [
        {
          facilityUuid,
          businessDate: from,
          billed: 0,
          charges: 0,
          autopayApproved: 0,
          autopayDeclined: 0,
          candidates: 0,
          done: 0,
          transitions: 0,
          skipped: true,
        },
      ];
    try {
      const results: RunResult[] = [];
      for (let date = from; date <= through; date = addDays(date, 1)) {
        results.push(await this.runLocked(facilityUuid, date, options, workers));
      }
      return results;
    } finally {
      await lock.release();
    }
  }

  private async runLocked(facilityUuid: string, businessDate: CalendarDate, options: RunOptions, workers: number): Promise<RunResult> {
    await query(this.dataSource, RUN_STARTED, [facilityUuid, businessDate]);
    const billing = await this.billing.bill(facilityUuid, businessDate, workers);
    // Autopay pays what billing just made due, before delinquency counts it unpaid.
    const autopay = await this.autopay.charge(facilityUuid, businessDate, workers);
    const failures: { rentalRecordUuid: string; error: unknown }[] = [...billing.failures, ...autopay.failures];
    const { schedule } = await facilitySchedule(this.dataSource, facilityUuid);
    const candidates = await runCandidates(this.dataSource, facilityUuid, businessDate, schedule);
    const progress: RunProgress = {
      facilityUuid,
      businessDate,
      billed: billing.rentals,
      charges: billing.charges,
      autopayApproved: autopay.approved,
      autopayDeclined: autopay.declined,
      candidates: candidates.length,
      done: 0,
      transitions: 0,
    };
    const chunkSize = Math.min(MAX_CHUNK, Math.ceil(candidates.length / workers));
    let next = 0;
    // Each worker holds one connection for the run and takes the rentals a chunk at a time (their states are
    // read in one statement); concurrency stays below the pool size (the facility lock holds one).
    const worker = async (): Promise<void> => {
      const session = await this.advancer.worker();
      try {
        for (let start = next; start < candidates.length; start = next) {
          next = start + chunkSize;
          const chunk = candidates.slice(start, next);
          const { transitions, failures: failed } = await session.advance(chunk, businessDate, schedule);
          progress.transitions += transitions;
          failures.push(...failed);
          const before = progress.done;
          progress.done += chunk.length;
          if (Math.floor(progress.done / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) options.onProgress?.({ ...progress });
        }
      } finally {
        await session.release();
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, workers), candidates.length) }, worker));
    options.onProgress?.({ ...progress });
    if (failures.length > 0) throw new RunFailed(facilityUuid, businessDate, failures);
    await query(this.dataSource, RUN_COMPLETED, [facilityUuid, businessDate, progress.transitions]);
    return { ...progress, skipped: false };
  }
}
