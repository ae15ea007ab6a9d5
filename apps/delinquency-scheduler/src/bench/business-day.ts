/**
 * `npm run bench:scheduler [-- --sizes 100000,1000000 --facilities 100 --concurrency 8]`: time and peak memory
 * of one business-day run over generated rentals (10 % delinquent, each due one stage that day), one child
 * process per size in a database of its own, then a table with the scaling ratio.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { createDataSource, locateDatabase, migrate } from '@storage/persistence';
import { BillingDay } from '../run/billing-day';
import { BusinessDayRunner } from '../run/business-day-runner';
import { runBusinessDate } from '../run/run-business-date';
import { BENCH_UUID_FUNCTION, createScaleDataset } from './scale-dataset';

const BUSINESS_DATE = '2025-06-01';

interface Measurement {
  rentals: number;
  facilities: number;
  candidates: number;
  transitions: number;
  events: number;
  seconds: number;
  peakRssMb: number;
}

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    facilities: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '8' },
    'one-size': { type: 'string' },
  },
});

async function measureOne(rentals: number, facilities: number, concurrency: number): Promise<Measurement> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const name = `bench_scheduler_${rentals}`;
  const admin = new Client({ connectionString: database.url });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  const dataSource = await createDataSource({ url: url.toString(), applicationName: 'bench-scheduler', poolSize: concurrency + 2 }).initialize();
  try {
    await migrate(url.toString());
    await dataSource.query(BENCH_UUID_FUNCTION);
    const generating = Date.now();
    await createScaleDataset(dataSource, { facilities, rentals, businessDate: BUSINESS_DATE });
    process.stderr.write(`  ${rentals} rentals generated in ${((Date.now() - generating) / 1000).toFixed(1)} s\n`);
    await settle(dataSource);

    global.gc?.();
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const runner = new BusinessDayRunner(dataSource, new BusinessDayAdvancer(dataSource, 'delinquency-scheduler'), new BillingDay(dataSource), concurrency);
    const started = process.hrtime.bigint();
    const results = await runBusinessDate(dataSource, runner, { asOf: BUSINESS_DATE });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const [{ events }] = await dataSource.query<[{ events: number }]>('SELECT count(*)::int AS events FROM outbox');
    return {
      rentals,
      facilities,
      candidates: results.reduce((sum, result) => sum + result.candidates, 0),
      transitions: results.reduce((sum, result) => sum + result.transitions, 0),
      events,
      seconds,
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    await dataSource.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await database.release();
  }
}

/**
 * Writes out the generation's dirty pages before the clock starts. Otherwise the run shares the two cores with
 * the checkpoint of a million freshly written rows, which a live database has long finished. CHECKPOINT needs
 * a superuser or pg_checkpoint: without, the run is measured as it comes, with a warning.
 */
async function settle(dataSource: DataSource): Promise<void> {
  try {
    await dataSource.query('CHECKPOINT');
  } catch (error) {
    process.stderr.write(`  no CHECKPOINT before the run (${error instanceof Error ? error.message : String(error)}): the time includes writing out the generated rows\n`);
  }
}

function table(rows: Measurement[]): string {
  const header = ['rentals', 'facilities', 'candidates', 'transitions', 'events', 'seconds', 'rentals/s', 'peak RSS MB'];
  const lines = rows.map((m) => [m.rentals, m.facilities, m.candidates, m.transitions, m.events, m.seconds.toFixed(1), Math.round(m.rentals / m.seconds), m.peakRssMb.toFixed(0)].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i])).join('  ');
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n');
}

async function main(): Promise<void> {
  const facilities = Number(values.facilities);
  const concurrency = Number(values.concurrency);
  if (values['one-size'] !== undefined) {
    // A child: one size, its measurement on stdout as JSON.
    process.stdout.write(JSON.stringify(await measureOne(Number(values['one-size']), facilities, concurrency)));
    return;
  }
  const measurements: Measurement[] = [];
  for (const size of values.sizes.split(',').map(Number)) {
    process.stderr.write(`measuring ${size} rentals ...\n`);
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', path.join(__dirname, 'business-day.js'), '--one-size', String(size), '--facilities', String(facilities), '--concurrency', String(concurrency)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
    );
    if (child.status !== 0) throw new Error(`measuring ${size} rentals failed (exit ${String(child.status)})`);
    measurements.push(JSON.parse(child.stdout) as Measurement);
  }
  process.stdout.write(`\nOne business-day run (${BUSINESS_DATE}), 10 % delinquent, concurrency ${concurrency}\n\n${table(measurements)}\n`);
  const [small, large] = [measurements[0], measurements[measurements.length - 1]];
  if (small && large && small !== large) {
    const sizeRatio = large.rentals / small.rentals;
    process.stdout.write(`\nsize ×${sizeRatio.toFixed(0)} → time ×${(large.seconds / small.seconds).toFixed(1)} (linear: ×${sizeRatio.toFixed(0)})\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
