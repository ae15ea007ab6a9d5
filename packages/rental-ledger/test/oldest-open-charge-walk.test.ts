import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { postEntries } from '../src';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { expectBalanceIsSumOfEntries } from './support/ledger-invariant';
import { insertRental } from './support/rentals';

/*
 * The ledger's trigger finds a rental's oldest open charge by walking back from its newest charge. In a database of
 * its own: what the walk reads depends on the plan PostgreSQL chooses from the ledger's statistics, here those of
 * a mature portfolio (every tenant ten years in).
 */

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'oldest-open-charge-walk-test', poolSize: 2 }).initialize();
  parents = await insertRentalParents(db, { itemTypeUuid: '8b3e4c50-2d6f-4e70-9b82-3c4d5e6f7082', promotionUuid: '00000000-0000-4000-8000-000000000001' });
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const newRental = (): Promise<string> =>
  insertRental(db, parents, { balanceInPennies: 0, billingDayOfMonth: 15, nextDueDate: '2026-04-15', startDate: '2016-01-15' });

describe('the oldest open charge', () => {
  it("reads only the open charges, not the rental's whole history: billing a long tenancy costs what billing a new one does", async () => {
    // Ten years of paid months (rent due on the 15th, paid the same day) for a rental and thirty others: a ledger
    // large enough to be read as a live one is, through its indexes.
    const months = Array.from({ length: 120 }, (_, i) => `${2016 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-15`);
    const tenYears = (rentalRecordUuid: string) =>
      db.transaction((m) =>
        postEntries(
          m,
          rentalRecordUuid,
          months.flatMap((dueOn) => [
            { kind: 'RENT' as const, description: `Rent ${dueOn}`, amountInPennies: 10_000, postedOn: dueOn, dueOn },
            { kind: 'PAYMENT' as const, description: 'Payment', amountInPennies: -10_000, postedOn: dueOn, dueOn: null, paymentUuid: randomUUID() },
          ]),
        ),
      );
    const rental = await newRental();
    await tenYears(rental);
    for (let other = 0; other < 30; other++) await tenYears(await newRental());
    // Statistics as autovacuum keeps them on a live database; then the ledger's rows the next month's posting reads,
    // counted by PostgreSQL inside the posting's transaction.
    await query(db, sql('ANALYZE rental_ledger_entries'));
    const rowsRead = await db.transaction(async (m) => {
      await postEntries(m, rental, [{ kind: 'RENT', description: 'Rent 2026-01-15', amountInPennies: 10_000, postedOn: '2026-01-15', dueOn: '2026-01-15' }]);
      const [row] = await query(
        m,
        sql<{ read: number }>(
          `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read FROM pg_stat_xact_user_tables WHERE relname = 'rental_ledger_entries'`,
        ),
      );
      return row.read;
    });
    expect(rowsRead).toBeLessThan(5);
    await expectBalanceIsSumOfEntries(db, rental);
  });

  it('is not looked for again when charges alone are posted after the newest: a year in arrears costs what a paid-up rental does', async () => {
    // In a ledger as a live one is (thirty other tenancies of ten years, statistics kept), read through its indexes.
    const others = await Promise.all(Array.from({ length: 30 }, () => newRental()));
    await query(
      db,
      sql(`INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on)
           SELECT r, 'RENT', 'Rent', 10000, d, d FROM unnest($1::uuid[]) AS r CROSS JOIN generate_series('2016-01-15'::date, '2025-12-15', '1 month') AS d`),
      [others],
    );
    await query(db, sql('ANALYZE rental_ledger_entries'));
    const rental = await newRental();
    const months = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}-15`);
    await db.transaction((m) =>
      postEntries(
        m,
        rental,
        months.map((dueOn) => ({ kind: 'RENT' as const, description: `Rent ${dueOn}`, amountInPennies: 10_000, postedOn: dueOn, dueOn })),
      ),
    );
    // Counted before and after: the session's counts not yet reported by earlier transactions are in both.
    const rowsRead = await db.transaction(async (m) => {
      const read = async (): Promise<number> => {
        const [row] = await query(
          m,
          sql<{ read: number }>(
            `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read FROM pg_stat_xact_user_tables WHERE relname = 'rental_ledger_entries'`,
          ),
        );
        return row.read;
      };
      const before = await read();
      await postEntries(m, rental, [
        { kind: 'RENT', description: 'Rent 2026-01-15', amountInPennies: 10_000, postedOn: '2026-01-15', dueOn: '2026-01-15' },
        { kind: 'SERVICE_FEE', description: 'Lock', amountInPennies: 500, postedOn: '2026-01-15', dueOn: '2026-01-15' },
      ]);
      return (await read()) - before;
    });
    // The two new charges and the newest before them; the walk read all fourteen open ones.
    expect(rowsRead).toBeLessThan(5);
    await expectBalanceIsSumOfEntries(db, rental);
    const [row] = await query(db, sql<{ oldest: string }>('SELECT oldest_open_due_on::text AS oldest FROM rental_records WHERE uuid = $1'), [rental]);
    expect(row.oldest).toBe('2025-01-15');
  });

  it('is kept by one set-based posting to many rentals at once, as a seed writes them, at the cost of the rows', async () => {
    // Thirty thousand rentals charged March in one statement, then April in another.
    const rentals = 30_000;
    const uuids = (
      await query(
        db,
        sql<{ uuid: string }>(
          `INSERT INTO rental_records (portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies, billing_day_of_month,
                                       next_due_date, start_date)
           SELECT $1, $2, $3, $4, $5, 10000, 15, '2026-05-15', '2026-03-15' FROM generate_series(1, $6) RETURNING uuid
           -- owner-bypass: rentals' rows in bulk, as the scale seed writes them, which this package's tests cannot reach (a workspace cycle)`,
        ),
        [parents.portfolioUuid, parents.facilityUuid, parents.unitUuid, parents.unitGroupUuid, parents.personUuid, rentals],
      )
    ).map((rental) => rental.uuid);
    const post = (dueOn: string) =>
      query(
        session,
        sql(`INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on)
             SELECT uuid, 'RENT', 'Rent', 10000, $1::date, $1::date FROM unnest($2::uuid[]) AS uuid`),
        [dueOn, uuids],
      );
    // A session of its own whose first posting is the bulk one (the trigger's plan is made then and kept), with the
    // least memory PostgreSQL allows a hash: a plan that looked each rental's rows up among the statement's own would
    // compare every row with every other, thirty thousand squared, and run into the timeout.
    const session = new Client({ connectionString: database.url, options: '-c work_mem=64kB -c statement_timeout=20s' });
    await session.connect();
    try {
      await post('2026-03-15');
      await post('2026-04-15');
    } finally {
      await session.end();
    }
    const [row] = await query(
      db,
      sql<{ rentals: number; owing: number; oldest: string[] }>(
        `SELECT count(*)::int AS rentals, sum(balance_in_pennies)::int / count(*)::int AS owing, array_agg(DISTINCT oldest_open_due_on::text) AS oldest
           FROM rental_records WHERE uuid = ANY($1::uuid[])`,
      ),
      [uuids],
    );
    expect(row).toEqual({ rentals, owing: 20_000, oldest: ['2026-03-15'] });
  });

  it('is, in a ledger read through that index, the oldest charge a partial payment leaves open', async () => {
    const rental = await newRental();
    await db.transaction((m) =>
      postEntries(m, rental, [
        { kind: 'RENT', description: 'January', amountInPennies: 10_000, postedOn: '2026-01-15', dueOn: '2026-01-15' },
        { kind: 'RENT', description: 'February', amountInPennies: 10_000, postedOn: '2026-02-15', dueOn: '2026-02-15' },
        { kind: 'PAYMENT', description: 'Payment', amountInPennies: -5_000, postedOn: '2026-02-20', dueOn: null, paymentUuid: randomUUID() },
        { kind: 'RENT', description: 'March', amountInPennies: 10_000, postedOn: '2026-03-15', dueOn: '2026-03-15' },
      ]),
    );
    await expectBalanceIsSumOfEntries(db, rental);
  });
});
