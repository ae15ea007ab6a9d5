import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { seedFacility, seedRental } from '../support/fixtures';
import { outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed } from '../support/harness';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

describe('delinquency run --as-of (the CLI)', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  beforeAll(async () => {
    bed = await schedulerTestBed();
  });
  afterAll(() => bed.close());

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: bed.database.url }, encoding: 'utf8' });

  it('runs a business date for every facility with progress output, and again without effect', async () => {
    const facility = await seedFacility(bed.scheduler.dataSource);
    const rental = await seedRental(bed.scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-03-01' });
    const first = cli('delinquency', 'run', '--as-of', '2025-03-11');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`2025-03-11 facility ${facility.facilityUuid}: 1/1 candidates, 2 transition(s)`);
    expect(first.stdout).toContain('2025-03-11: 1 facility run(s), 2 transition(s)');
    const again = cli('delinquency', 'run', '--as-of', '2025-03-11', '--facility', facility.facilityUuid);
    expect(again.stdout).toContain('2025-03-11: 1 facility run(s), 0 transition(s)');
    expect(statusTrail(await outboxEvents(bed.scheduler.dataSource, rental.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11']);
  });

  it('refuses bad arguments with exit code 2 and the usage', () => {
    const bad = cli('delinquency', 'run', '--as-of', '2025-02-30');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--as-of must be a date YYYY-MM-DD');
    expect(bad.stderr).toContain('usage: delinquency run');
    expect(cli('delinquency', 'run', '--as-of', '2025-03-01', '--facility', 'nope').status).toBe(2);
  });
});
