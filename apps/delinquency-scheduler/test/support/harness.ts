import { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { AuctionService, BusinessDayAdvancer, DelinquencyService } from '@storage/delinquency';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { BillingDay } from '../../src/run/billing-day';
import { BusinessDayRunner, type RunResult } from '../../src/run/business-day-runner';
import { runBusinessDate } from '../../src/run/run-business-date';

/** One scheduler instance over a database: its own connections, services and runner. */
export interface SchedulerInstance {
  dataSource: DataSource;
  delinquency: DelinquencyService;
  auctions: AuctionService;
  advancer: BusinessDayAdvancer;
  runner: BusinessDayRunner;
  run: (asOf: CalendarDate, facilityUuid?: string) => Promise<RunResult[]>;
  close: () => Promise<void>;
}

export async function schedulerInstance(url: string, concurrency = 4): Promise<SchedulerInstance> {
  const dataSource = await createDataSource({ url, applicationName: 'scheduler-test', poolSize: concurrency + 2 }).initialize();
  const publisher = new OutboxPublisher('delinquency-scheduler');
  const delinquency = new DelinquencyService(dataSource, publisher);
  const advancer = new BusinessDayAdvancer(dataSource, 'delinquency-scheduler');
  const runner = new BusinessDayRunner(dataSource, advancer, new BillingDay(dataSource), concurrency);
  return {
    dataSource,
    delinquency,
    advancer,
    auctions: new AuctionService(dataSource, publisher),
    runner,
    run: (asOf, facilityUuid) => runBusinessDate(dataSource, runner, facilityUuid ? { asOf, facilityUuid } : { asOf }),
    close: () => dataSource.destroy(),
  };
}

/** A fresh migrated database and one scheduler instance on it, for a test file. */
export async function schedulerTestBed(): Promise<{ database: TestDatabase; scheduler: SchedulerInstance; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const scheduler = await schedulerInstance(database.url);
  return {
    database,
    scheduler,
    close: async () => {
      await scheduler.close();
      await database.drop();
    },
  };
}
