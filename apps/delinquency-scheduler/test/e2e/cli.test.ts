import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { seedFacility, seedRental } from '../support/fixtures';
import { outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed } from '../support/harness';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

describe('business-day run --as-of, or delinquency run (the CLI)', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  beforeAll(async () => {
    bed = await schedulerTestBed();
  });
  afterAll(() => bed.close());

  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: bed.database.url }, encoding: 'utf8' });

  it('runs a business date for every facility with progress output, and again without effect', async () => {
    const facility = await seedFacility(bed.scheduler.dataSource);
    const rental = await seedRental(bed.scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    const first = cli('delinquency', 'run', '--as-of', '2025-03-11');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(
      `2025-03-11 facility ${facility.facilityUuid}: 0 rental(s) billed, 0 charge(s), autopay 0 approved / 0 declined; 1/1 candidates, 2 transition(s)`,
    );
    expect(first.stdout).toContain('2025-03-11: 1 facility run(s), 0 rental(s) billed, 0 charge(s), autopay 0 approved / 0 declined, 2 transition(s)');
    // April 1st bills the month's rent and service; a rerun of the day bills nothing again.
    // Its clearer name runs the same.
    const april = cli('business-day', 'run', '--as-of', '2025-04-01');
    expect(april.stdout).toContain('2025-04-01: 1 facility run(s), 1 rental(s) billed, 2 charge(s), autopay 0 approved / 0 declined, 1 transition(s)');
    const again = cli('delinquency', 'run', '--as-of', '2025-04-01', '--facility', facility.facilityUuid);
    expect(again.stdout).toContain('2025-04-01: 1 facility run(s), 0 rental(s) billed, 0 charge(s), autopay 0 approved / 0 declined, 0 transition(s)');
    expect(statusTrail(await outboxEvents(bed.scheduler.dataSource, rental.rentalRecordUuid))).toEqual([
      'null→OVERDUE@2025-03-07',
      'OVERDUE→OVERLOCK@2025-03-11',
      'OVERLOCK→LIEN@2025-03-31',
    ]);
  });

  it('refuses bad arguments with exit code 2 and the usage', () => {
    const bad = cli('delinquency', 'run', '--as-of', '2025-02-30');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("option '--as-of <YYYY-MM-DD>' argument '2025-02-30' is invalid. a date YYYY-MM-DD is needed");
    expect(bad.stderr).toContain('(add --help for usage)');
    expect(cli('delinquency', 'run', '--as-of', '2025-03-01', '--facility', 'nope').status).toBe(2);
    expect(cli('business-day', 'run').stderr).toContain("required option '--as-of <YYYY-MM-DD>' not specified");
  });
});
