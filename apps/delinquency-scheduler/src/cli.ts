/**
 * `node apps/delinquency-scheduler/dist/cli.js business-day run --as-of YYYY-MM-DD [--facility <uuid>]`
 * (`npm run cli -- business-day run ...` routes here; `delinquency run`, its first name, too). Runs one business
 * date now, billing then delinquency, for operators and tests.
 * Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
import 'reflect-metadata';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { isCalendarDate, isUuid } from '@storage/domain';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { createDataSource, locateDatabase } from '@storage/persistence';
import { loadServiceConfig } from './config';
import { BillingDay } from './run/billing-day';
import { BusinessDayRunner, type RunProgress } from './run/business-day-runner';
import { runBusinessDate } from './run/run-business-date';
import { SERVICE_NAME } from './service-info';

/** Option parsers: a wrong value is a usage error (exit 2) naming it. */
function calendarDate(value: string): string {
  if (!isCalendarDate(value)) throw new InvalidArgumentError('a date YYYY-MM-DD is needed');
  return value;
}

function uuid(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError('a UUID is needed');
  return value;
}

/** The command's names: `business-day`, what it runs; `delinquency`, its first name, kept for the scripts that use it. */
const COMMAND_NAMES = [
  ['business-day', 'the facility business day, now: billing, then delinquency'],
  ['delinquency', 'the facility business day, now (the same as business-day, its first name)'],
] as const;

function program(run: (args: { asOf: string; facilityUuid?: string }) => Promise<void>): Command {
  const root = new Command('npm run cli --').exitOverride().showHelpAfterError('(add --help for usage)');
  for (const [name, description] of COMMAND_NAMES) {
    root
      .command(name)
      .description(description)
      .command('run')
      .description('bill, then advance delinquency, for one business date in every facility (or one)')
      .requiredOption('--as-of <YYYY-MM-DD>', 'the business date', calendarDate)
      .option('--facility <uuid>', 'only this facility', uuid)
      .action(async (options: { asOf: string; facility?: string }) =>
        run(options.facility === undefined ? { asOf: options.asOf } : { asOf: options.asOf, facilityUuid: options.facility }),
      );
  }
  return root;
}

function report(progress: RunProgress): void {
  process.stdout.write(
    `${progress.businessDate} facility ${progress.facilityUuid}: ${progress.billed} rental(s) billed, ${progress.charges} charge(s), ` +
      `autopay ${progress.autopayApproved} approved / ${progress.autopayDeclined} declined; ` +
      `${progress.done}/${progress.candidates} candidates, ${progress.transitions} transition(s)\n`,
  );
}

async function run(args: { asOf: string; facilityUuid?: string }): Promise<void> {
  process.stdout.write(`running business date ${args.asOf} for ${args.facilityUuid === undefined ? 'every facility' : `facility ${args.facilityUuid}`}\n`);
  const config = loadServiceConfig();
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const dataSource = await createDataSource({
    url: database.url,
    applicationName: `${SERVICE_NAME}-cli`,
    poolSize: config.SCHEDULER_CONCURRENCY + 2,
  }).initialize();
  try {
    const runner = new BusinessDayRunner(
      dataSource,
      new BusinessDayAdvancer(dataSource, SERVICE_NAME),
      new BillingDay(dataSource),
      config.SCHEDULER_CONCURRENCY,
    );
    const results = await runBusinessDate(dataSource, runner, { ...args, onProgress: report });
    const total = (key: 'billed' | 'charges' | 'autopayApproved' | 'autopayDeclined' | 'transitions'): number =>
      results.reduce((sum, result) => sum + result[key], 0);
    process.stdout.write(
      `${args.asOf}: ${results.length} facility run(s), ${total('billed')} rental(s) billed, ${total('charges')} charge(s), ` +
        `autopay ${total('autopayApproved')} approved / ${total('autopayDeclined')} declined, ${total('transitions')} transition(s)\n`,
    );
  } finally {
    await dataSource.destroy();
    await database.release();
  }
}

program(run)
  .parseAsync(process.argv.slice(2), { from: 'user' })
  .then(
    () => process.exit(0),
    (error: unknown) => {
      // commander printed the usage or the usage error itself: help exits 0, a usage error 2.
      if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
