import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { query, sql } from '@storage/persistence';
import { seedFacility, seedRental } from '../support/fixtures';
import { schedulerTestBed } from '../support/harness';

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const RENTALS = 510;

/*
 * A business-day run killed -9 in the middle of billing, then run again: every rental is billed once for the
 * period, whatever the killed run had written. The interleaving is forced: one worker bills batches of 250 in uuid
 * order, and the test holds a lock on a rental of the second batch, so the first batch is committed and the second
 * is in PostgreSQL, waiting, when the process dies. That statement then finishes on its own once the lock goes
 * (its client is gone but PostgreSQL does not know it yet), while the rerun bills the same rentals: the row
 * version guard and the charge keys must make the two write each charge once between them.
 */
describe('a business-day run killed mid-billing, then rerun', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  beforeAll(async () => {
    bed = await schedulerTestBed();
  });
  afterAll(() => bed.close());

  const env = () => ({ ...process.env, DATABASE_URL: bed.database.url, SCHEDULER_CONCURRENCY: '1' });

  it('bills every rental exactly once for the period, with one charge-posted fact per charge', async () => {
    const db = bed.scheduler.dataSource;
    const facility = await seedFacility(db);
    const rentals: string[] = [];
    for (let i = 0; i < RENTALS; i++) rentals.push((await seedRental(db, facility, { balanceInPennies: 0, dueOn: '2025-03-01' })).rentalRecordUuid);
    rentals.sort();
    const held = rentals[300];

    const blocker = db.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await query(blocker, sql('SELECT 1 FROM rental_records WHERE uuid = $1 FOR UPDATE'), [held]);

    const killed = spawn(process.execPath, [CLI, 'delinquency', 'run', '--as-of', '2025-04-01'], { env: env(), stdio: 'ignore' });
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    try {
      // The first batch committed, the second waiting on the held rental.
      await eventually(
        async () => {
          const [{ billed }] = await query(
            db,
            sql<{ billed: number }>(`SELECT count(*)::int AS billed FROM rental_records WHERE facility_uuid = $1 AND next_due_date > '2025-04-01'`),
            [facility.facilityUuid],
          );
          expect(billed).toBe(250);
          expect(await sessionsWaitingForLocks(db)).toBe(1);
        },
        { timeoutMs: 60_000 },
      );
      killed.kill('SIGKILL');
      await exited;
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }

    const rerun = spawnSync(process.execPath, [CLI, 'delinquency', 'run', '--as-of', '2025-04-01'], { env: env(), encoding: 'utf8' });
    expect(rerun.stderr).toBe('');
    expect(rerun.status).toBe(0);
    // The killed run's waiting statement may still be finishing: wait until nothing of this database is in flight.
    await eventually(async () => {
      const [{ busy }] = await query(
        db,
        sql<{ busy: number }>(
          `SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
        ),
      );
      expect(busy).toBe(0);
    });

    const perRental = await query(
      db,
      sql<{
        uuid: string;
        next_due_date: string;
        balance: number;
        entries_sum: number;
        rent: number;
        service: number;
      }>(`SELECT r.uuid, r.next_due_date::text AS next_due_date, r.balance_in_pennies AS balance,
              coalesce(sum(e.amount_in_pennies), 0)::int AS entries_sum,
              count(*) FILTER (WHERE e.kind = 'RENT' AND e.due_on = '2025-04-01')::int AS rent,
              count(*) FILTER (WHERE e.kind = 'SERVICE_FEE' AND e.due_on = '2025-04-01')::int AS service
         FROM rental_records r LEFT JOIN rental_ledger_entries e ON e.rental_record_uuid = r.uuid
        WHERE r.facility_uuid = $1 GROUP BY r.uuid`),
      [facility.facilityUuid],
    );
    expect(perRental).toHaveLength(RENTALS);
    for (const rental of perRental) {
      expect({ uuid: rental.uuid, nextDueDate: rental.next_due_date, rent: rental.rent, service: rental.service, balance: rental.balance }).toEqual({
        uuid: rental.uuid,
        nextDueDate: '2025-05-01',
        rent: 1,
        service: 1,
        balance: rental.entries_sum,
      });
    }
    const [facts] = await query(
      db,
      sql(`SELECT count(*)::int AS facts, count(DISTINCT o.envelope->'payload'->>'chargeUuid')::int AS distinct_charges,
              (SELECT count(*)::int FROM rental_ledger_entries e JOIN rental_records r ON r.uuid = e.rental_record_uuid
                WHERE r.facility_uuid = $1 AND e.due_on = '2025-04-01') AS charges
         FROM outbox o WHERE o.type = 'charge-posted' AND o.key = ANY($2::text[])`),
      [facility.facilityUuid, rentals],
    );
    expect(facts).toEqual({ facts: RENTALS * 2, distinct_charges: RENTALS * 2, charges: RENTALS * 2 });
  }, 180_000);
});
