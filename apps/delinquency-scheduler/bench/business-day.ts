/**
 * `npm run bench:scheduler [-- --sizes 100000,1000000 --days typical,worst --facilities 100 --concurrency 8 --reuse]`: time
 * and peak memory of one business-day run (billing, then delinquency) over generated rentals (10 % delinquent,
 * each due one stage that day; on a typical day a 28th of the rentals bill, on the worst day all of them), one
 * child process per size and day in a database of its own, then a table with the scaling ratio.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { createDataSource, query, sql } from '@storage/persistence';
import { BillingDay, type BillingResult } from '../dist/run/billing-day';
import { BusinessDayRunner, type RunOptions, type RunResult } from '../dist/run/business-day-runner';
import { runBusinessDate } from '../dist/run/run-business-date';
import { datasetDatabase } from './generated-dataset';
import type { BillingSpread } from './scale-dataset';
import { sessionCpuSeconds } from './session-cpu';

const BUSINESS_DATE = '2025-06-01';

interface Measurement {
  day: BillingSpread;
  rentals: number;
  facilities: number;
  billed: number;
  charges: number;
  candidates: number;
  transitions: number;
  events: number;
  seconds: number;
  /** The part of `seconds` spent billing: the run's time weighted by the facilities' billing share of their time. */
  billingSeconds: number;
  /** CPU seconds of the run: this process, and the database sessions it used (null when not on this machine). */
  nodeCpuSeconds: number;
  databaseCpuSeconds: number | null;
  peakRssMb: number;
}

/** Billing as the run bills, timed: how long facilities spent in it, summed. */
class TimedBillingDay extends BillingDay {
  seconds = 0;

  override async bill(facilityUuid: string, businessDate: string, workers: number): Promise<BillingResult> {
    const started = process.hrtime.bigint();
    try {
      return await super.bill(facilityUuid, businessDate, workers);
    } finally {
      this.seconds += Number(process.hrtime.bigint() - started) / 1e9;
    }
  }
}

/** The runner, timing each facility's run: the time billing's share is taken of. */
class TimedBusinessDayRunner extends BusinessDayRunner {
  facilitySeconds = 0;

  override async runDates(facilityUuid: string, from: string, through: string, options: RunOptions, workers?: number): Promise<RunResult[]> {
    const started = process.hrtime.bigint();
    try {
      return await super.runDates(facilityUuid, from, through, options, workers);
    } finally {
      this.facilitySeconds += Number(process.hrtime.bigint() - started) / 1e9;
    }
  }
}

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    days: { type: 'string', default: 'typical,worst' },
    day: { type: 'string' },
    facilities: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '8' },
    history: { type: 'string', default: '0' },
    reuse: { type: 'boolean', default: false },
    'one-size': { type: 'string' },
  },
});

async function measureOne(day: BillingSpread, rentals: number, facilities: number, concurrency: number, historyMonths: number): Promise<Measurement> {
  const dataset = { facilities, rentals, businessDate: BUSINESS_DATE, spread: day, historyMonths };
  const database = await datasetDatabase(`bench_scheduler_${rentals}`, dataset, { reuse: values.reuse });
  const dataSource = await createDataSource({ url: database.url, applicationName: 'bench-scheduler', poolSize: concurrency + 2 }).initialize();
  try {
    await settle(dataSource);

    global.gc?.();
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const billing = new TimedBillingDay(dataSource);
    const runner = new TimedBusinessDayRunner(dataSource, new BusinessDayAdvancer(dataSource, 'delinquency-scheduler'), billing, concurrency);
    // Every session of the pool open before the clock starts, so their CPU is counted from here.
    await Promise.all(Array.from({ length: concurrency + 2 }, () => query(dataSource, sql<unknown>('SELECT pg_sleep(0.05)'))));
    const databaseCpuBefore = await sessionCpuSeconds(dataSource);
    const nodeCpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const results = await runBusinessDate(dataSource, runner, { asOf: BUSINESS_DATE });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const nodeCpu = process.cpuUsage(nodeCpuBefore);
    const databaseCpuAfter = await sessionCpuSeconds(dataSource);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const [{ events }] = await query(dataSource, sql<{ events: number }>('SELECT count(*)::int AS events FROM outbox'));
    return {
      day,
      rentals,
      facilities,
      billed: results.reduce((sum, result) => sum + result.billed, 0),
      charges: results.reduce((sum, result) => sum + result.charges, 0),
      candidates: results.reduce((sum, result) => sum + result.candidates, 0),
      transitions: results.reduce((sum, result) => sum + result.transitions, 0),
      events,
      seconds,
      billingSeconds: (seconds * billing.seconds) / runner.facilitySeconds,
      nodeCpuSeconds: (nodeCpu.user + nodeCpu.system) / 1e6,
      databaseCpuSeconds:
        databaseCpuBefore.size === 0 ? null : [...databaseCpuAfter].reduce((sum, [pid, cpu]) => sum + cpu - (databaseCpuBefore.get(pid) ?? 0), 0),
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    await dataSource.destroy();
    await database.drop();
  }
}

/**
 * Writes out the generation's dirty pages before the clock starts. Otherwise the run shares the two cores with
 * the checkpoint of a million freshly written rows, which a live database has long finished. CHECKPOINT needs
 * a superuser or pg_checkpoint: without, the run is measured as it comes, with a warning.
 */
async function settle(dataSource: DataSource): Promise<void> {
  try {
    await query(dataSource, sql('CHECKPOINT'));
  } catch (error) {
    process.stderr.write(
      `  no CHECKPOINT before the run (${error instanceof Error ? error.message : String(error)}): the time includes writing out the generated rows\n`,
    );
  }
}

function spreadOf(day: string): BillingSpread {
  if (day !== 'typical' && day !== 'worst') throw new Error(`--days takes typical and/or worst, got ${day}`);
  return day;
}

function table(rows: Measurement[]): string {
  const header = [
    'day',
    'rentals',
    'facilities',
    'billed',
    'charges',
    'candidates',
    'transitions',
    'events',
    'seconds',
    'billing s',
    'rentals/s',
    'CPU s node',
    'CPU s db',
    'peak RSS MB',
  ];
  const lines = rows.map((m) =>
    [
      m.day,
      m.rentals,
      m.facilities,
      m.billed,
      m.charges,
      m.candidates,
      m.transitions,
      m.events,
      m.seconds.toFixed(1),
      m.billingSeconds.toFixed(1),
      Math.round(m.rentals / m.seconds),
      m.nodeCpuSeconds.toFixed(1),
      m.databaseCpuSeconds?.toFixed(1) ?? '-',
      m.peakRssMb.toFixed(0),
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n');
}

async function main(): Promise<void> {
  const facilities = Number(values.facilities);
  const concurrency = Number(values.concurrency);
  const historyMonths = Number(values.history);
  if (values['one-size'] !== undefined) {
    // A child: one size and day, its measurement on stdout as JSON.
    process.stdout.write(
      JSON.stringify(await measureOne(spreadOf(values.day ?? 'typical'), Number(values['one-size']), facilities, concurrency, historyMonths)),
    );
    return;
  }
  const measurements: Measurement[] = [];
  const days = values.days.split(',').map(spreadOf);
  for (const day of days) {
    for (const size of values.sizes.split(',').map(Number)) {
      process.stderr.write(`measuring ${size} rentals, ${day} day ...\n`);
      const child = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          path.join(__dirname, 'business-day.js'),
          '--one-size',
          String(size),
          '--day',
          day,
          '--facilities',
          String(facilities),
          '--concurrency',
          String(concurrency),
          '--history',
          String(historyMonths),
          ...(values.reuse ? ['--reuse'] : []),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
      );
      if (child.status !== 0) throw new Error(`measuring ${size} rentals (${day} day) failed (exit ${String(child.status)})`);
      measurements.push(JSON.parse(child.stdout) as Measurement);
    }
  }
  process.stdout.write(
    `\nOne business-day run (${BUSINESS_DATE}: billing, then delinquency), 10 % delinquent, ${historyMonths} paid months of ledger history, concurrency ${concurrency}\n\n${table(measurements)}\n`,
  );
  for (const day of days) {
    const ofDay = measurements.filter((m) => m.day === day);
    const [small, large] = [ofDay[0], ofDay[ofDay.length - 1]];
    if (small && large && small !== large) {
      const sizeRatio = large.rentals / small.rentals;
      const timeRatio = large.seconds / small.seconds;
      process.stdout.write(
        `${day} day: size ×${sizeRatio.toFixed(0)} → time ×${timeRatio.toFixed(1)} (linear: ×${sizeRatio.toFixed(0)}; ${verdict(timeRatio <= sizeRatio * LINEAR_SLACK)})\n`,
      );
    }
  }
  const worstAtScale = measurements.find((m) => m.day === 'worst' && m.rentals === TARGET.rentals);
  if (worstAtScale) {
    process.stdout.write(
      `worst day at ${TARGET.rentals}: ${worstAtScale.seconds.toFixed(1)} s (target under ${TARGET.seconds} s: ${verdict(worstAtScale.seconds < TARGET.seconds)}), ` +
        `${worstAtScale.peakRssMb.toFixed(0)} MB (target under ${TARGET.peakRssMb} MB: ${verdict(worstAtScale.peakRssMb < TARGET.peakRssMb)})\n`,
    );
  }
}

/** The targets for the worst day (every rental billing), billing and delinquency together, on two cores. */
const TARGET = { rentals: 1_000_000, seconds: 60, peakRssMb: 300 };
/** Linear in rentals: the time grows no faster than the size, give or take a quarter (a loaded machine's spread). */
const LINEAR_SLACK = 1.25;
const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
