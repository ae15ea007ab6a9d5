/**
 * `node apps/delinquency-scheduler/dist/cli.js delinquency run --as-of YYYY-MM-DD [--facility <uuid>]`
 * (`npm run cli -- delinquency run ...` routes here). Runs one business date now, for operators and tests.
 * Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { isCalendarDate, isUuid } from '@storage/domain';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { createDataSource, locateDatabase } from '@storage/persistence';
import { loadServiceConfig } from './config';
import { BillingDay } from './run/billing-day';
import { BusinessDayRunner, type RunProgress } from './run/business-day-runner';
import { runBusinessDate } from './run/run-business-date';
import { SERVICE_NAME } from './service-info';

const USAGE = 'usage: delinquency run --as-of YYYY-MM-DD [--facility <uuid>]\n';

class UsageError extends Error {}

function parse(argv: string[]): { asOf: string; facilityUuid?: string } {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'as-of': { type: 'string' }, facility: { type: 'string' } },
  });
  if (positionals.join(' ') !== 'delinquency run') throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  const asOf = values['as-of'];
  if (!isCalendarDate(asOf)) throw new UsageError('--as-of must be a date YYYY-MM-DD');
  const facility = values.facility;
  if (facility !== undefined && !isUuid(facility)) throw new UsageError('--facility must be a UUID');
  return facility === undefined ? { asOf } : { asOf, facilityUuid: facility };
}

function report(progress: RunProgress): void {
  process.stdout.write(
    `${progress.businessDate} facility ${progress.facilityUuid}: ${progress.billed} rental(s) billed, ${progress.charges} charge(s); ` +
      `${progress.done}/${progress.candidates} candidates, ${progress.transitions} transition(s)\n`,
  );
}

async function main(argv: string[]): Promise<void> {
  const args = parse(argv);
  const config = loadServiceConfig();
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const dataSource = await createDataSource({ url: database.url, applicationName: `${SERVICE_NAME}-cli`, poolSize: config.SCHEDULER_CONCURRENCY + 2 }).initialize();
  try {
    const runner = new BusinessDayRunner(dataSource, new BusinessDayAdvancer(dataSource, SERVICE_NAME), new BillingDay(dataSource), config.SCHEDULER_CONCURRENCY);
    const results = await runBusinessDate(dataSource, runner, { ...args, onProgress: report });
    const total = (key: 'billed' | 'charges' | 'transitions'): number => results.reduce((sum, result) => sum + result[key], 0);
    process.stdout.write(
      `${args.asOf}: ${results.length} facility run(s), ${total('billed')} rental(s) billed, ${total('charges')} charge(s), ${total('transitions')} transition(s)\n`,
    );
  } finally {
    await dataSource.destroy();
    await database.release();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(USAGE);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
