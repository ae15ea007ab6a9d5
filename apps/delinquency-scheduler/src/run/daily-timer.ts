import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BusinessDayRunner } from './business-day-runner';
import { dueRuns } from './due-runs';

export const TICK_SECONDS = Symbol('TICK_SECONDS');

/**
 * Every tick, runs each facility that has reached a new local business date (missed days first). Replicas
 * tick too: a facility being run elsewhere is left to that replica and looked at again next tick.
 */
@Injectable()
export class DailyTimer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DailyTimer.name);
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BusinessDayRunner) private readonly runner: BusinessDayRunner,
    @Inject(TICK_SECONDS) private readonly tickSeconds: number,
  ) {}

  onApplicationBootstrap(): void {
    if (this.tickSeconds > 0) this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  /** Runs every due facility once; exported for tests that pass their own `now`. */
  async tick(now: Date = new Date()): Promise<void> {
    const results = await this.runner.runFacilities(await dueRuns(this.dataSource, now), {
      wait: false,
      stopping: () => this.stopped,
      // One facility's failure must not hold the others back; its date stays due and runs again next tick.
      onFailure: (run, error) => this.logger.error(`facility ${run.facilityUuid}: ${error instanceof Error ? error.message : String(error)}`),
    });
    for (const result of results.flat()) {
      if (!result.skipped) {
        this.logger.log(
          `facility ${result.facilityUuid} ${result.businessDate}: ${result.billed} rental(s) billed, ${result.charges} charge(s), ` +
            `autopay ${result.autopayApproved} approved / ${result.autopayDeclined} declined; ` +
            `${result.transitions} transition(s) over ${result.candidates} candidate(s)`,
        );
      }
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.current = this.tick().catch((error: unknown) => this.logger.error(`tick failed: ${String(error)}`));
      void this.current.then(() => {
        if (!this.stopped) this.schedule(this.tickSeconds * 1_000);
      });
    }, delayMs);
  }
}
