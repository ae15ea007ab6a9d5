import { Pool, type ClientBase, type QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { billRentals, ledgerEntries } from '../src';
import { insertRental } from './support/rentals';

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'billing-test', poolSize: 4 }).initialize();
  parents = await insertRentalParents(db, { itemTypeUuid: LOCK });
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const LOCK = '8b3e4c50-2d6f-4e70-9b82-3c4d5e6f7082';

/** A rental of 10000 a month billed on the 10th since 2026-01-10, its first period billed, with a 15.00 lock service. */
async function rental(options: { startDate?: string; tenancyStartDate?: string; nextDueDate?: string } = {}): Promise<string> {
  const uuid = await insertRental(db, parents, {
    billingDayOfMonth: 10,
    nextDueDate: options.nextDueDate ?? '2026-02-10',
    startDate: options.startDate ?? '2026-01-10',
    tenancyStartDate: options.tenancyStartDate ?? null,
  });
  await query(
    db,
    sql(`INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     VALUES ($1, $2, 'Lock', 1500, 'FIXED_AMOUNT', '2026-01-10')
     -- owner-bypass: rentals' service (addService), which this package's tests cannot reach (@storage/rentals depends on it: a workspace cycle)`),
    [uuid, LOCK],
  );
  // Half off the rent in months 1 and 2, as frozen at signing.
  await query(
    db,
    sql(`INSERT INTO rental_promotions (rental_record_uuid, promotion_uuid, name, family, discount_type, percentage, month_starts, duration_in_months,
                                    discount_in_pennies, applied_on)
     VALUES ($1, $2, 'Half off two months', 'RENT', 'PERCENTAGE', 50, 1, 2, 5000, '2026-01-10')
     -- owner-bypass: the api's promotion applied at lease signing, which no package can reach`),
    [uuid, parents.promotionUuid],
  );
  return uuid;
}

/** A rent change from `effectiveDate` on, as the api's batched rent change writes it. */
async function changeRent(uuid: string, effectiveDate: string, rentInPennies: number): Promise<void> {
  await query(
    db,
    sql(`INSERT INTO rental_rent_changes (rental_record_uuid, effective_date, rent_in_pennies, previous_rent_in_pennies) VALUES ($1, $2, $3, 10000)
         -- owner-bypass: rentals' rent change (CHANGE_RENTS_SQL), which this package's tests cannot reach (@storage/rentals depends on it: a workspace cycle)`),
    [uuid, effectiveDate, rentInPennies],
  );
}

const bill = (uuids: string[], through: string) => billRentals(db, uuids, through, { postedOn: through, source: 'test' });

async function summary(uuid: string): Promise<(string | number | null)[][]> {
  return (await ledgerEntries(db.manager, uuid)).map((e) => [e.kind, e.amountInPennies, e.dueOn, e.description]);
}

describe('billing a rental', () => {
  it('posts every period due in order, each once: promotions in their months, a rent change from the first period on or after it', async () => {
    const uuid = await rental();
    await changeRent(uuid, '2026-03-05', 12000);
    const first = await bill([uuid], '2026-04-10');
    expect(first).toEqual({ billed: [uuid], changed: [], charges: 6 });
    expect(await summary(uuid)).toEqual([
      ['RENT', 10000, '2026-02-10', 'Rent 2026-02-10 to 2026-03-09'],
      ['PROMOTION_CREDIT', -5000, null, 'Half off two months'],
      ['SERVICE_FEE', 1500, '2026-02-10', 'Lock'],
      ['RENT', 12000, '2026-03-10', 'Rent 2026-03-10 to 2026-04-09'],
      ['SERVICE_FEE', 1500, '2026-03-10', 'Lock'],
      ['RENT', 12000, '2026-04-10', 'Rent 2026-04-10 to 2026-05-09'],
      ['SERVICE_FEE', 1500, '2026-04-10', 'Lock'],
    ]);
    const [row] = await query(db, sql('SELECT next_due_date::text AS next, balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'), [uuid]);
    expect(row).toEqual({ next: '2026-05-10', balance: 5000 + 1500 + 12000 + 1500 + 12000 + 1500 });
    const events = await query(
      db,
      sql<{ envelope: { payload: { chargeUuid: string; amountInPennies: number; balanceAfterInPennies: number; description: string } } }>(
        `SELECT envelope FROM outbox WHERE key = $1 AND type = 'charge-posted' ORDER BY id`,
      ),
      [uuid],
    );
    expect(events.map((e) => [e.envelope.payload.amountInPennies, e.envelope.payload.balanceAfterInPennies])).toEqual([
      [5000, 5000],
      [1500, 6500],
      [12000, 18500],
      [1500, 20000],
      [12000, 32000],
      [1500, 33500],
    ]);
    expect(events[0].envelope.payload.description).toBe('Rent 2026-02-10 to 2026-03-09, less Half off two months');

    // Again, for the same day or any day before the next due date: nothing.
    expect(await bill([uuid], '2026-04-10')).toEqual({ billed: [], changed: [], charges: 0 });
    expect(await bill([uuid], '2026-05-09')).toEqual({ billed: [], changed: [], charges: 0 });
    expect(await summary(uuid)).toHaveLength(7);
  });

  it('goes on with the tenancy after a transfer: billing day and promotion months count from the tenancy start', async () => {
    const uuid = await rental({ startDate: '2026-03-20', tenancyStartDate: '2026-01-10', nextDueDate: '2026-04-10' });
    await bill([uuid], '2026-04-10');
    // Month 4 of the tenancy: no promotion left.
    expect(await summary(uuid)).toEqual([
      ['RENT', 10000, '2026-04-10', 'Rent 2026-04-10 to 2026-05-09'],
      ['SERVICE_FEE', 1500, '2026-04-10', 'Lock'],
    ]);
  });

  it('moves the next due date past periods that charge nothing, after billing the periods before them', async () => {
    const free = await rental();
    const freeFromMarch = await rental();
    for (const uuid of [free, freeFromMarch]) {
      await changeRent(uuid, uuid === free ? '2026-02-01' : '2026-03-05', 0);
      await query(
        db,
        sql(`UPDATE rental_services SET end_date = $2 WHERE rental_record_uuid = $1
             -- owner-bypass: rentals' endService, which this package's tests cannot reach (@storage/rentals depends on it: a workspace cycle)`),
        [uuid, uuid === free ? '2026-02-01' : '2026-03-05'],
      );
    }
    // February charges the one, March and April neither: what charges nothing posts nothing, and is billed all the same.
    expect(await bill([free, freeFromMarch], '2026-04-10')).toEqual({ billed: [free], changed: [freeFromMarch], charges: 2 });
    expect(await bill([freeFromMarch], '2026-04-10')).toEqual({ billed: [freeFromMarch], changed: [], charges: 0 });
    expect(await bill([free, freeFromMarch], '2026-04-10')).toEqual({ billed: [], changed: [], charges: 0 });
    expect(await summary(free)).toEqual([]);
    expect(await summary(freeFromMarch)).toEqual([
      ['RENT', 10000, '2026-02-10', 'Rent 2026-02-10 to 2026-03-09'],
      ['PROMOTION_CREDIT', -5000, null, 'Half off two months'],
      ['SERVICE_FEE', 1500, '2026-02-10', 'Lock'],
    ]);
    const rows = await query(
      db,
      sql('SELECT next_due_date::text AS next, balance_in_pennies AS balance FROM rental_records WHERE uuid = ANY($1) ORDER BY uuid = $2'),
      [[free, freeFromMarch], freeFromMarch],
    );
    expect(rows).toEqual([
      { next: '2026-05-10', balance: 0 },
      { next: '2026-05-10', balance: 6500 },
    ]);
  });

  it('writes nothing for a rental changed between its read and the write, and the others of the batch in full', async () => {
    const [unchanged, changed] = [await rental(), await rental()];
    // The batch's write (its second statement) comes after a write to one of its rentals, as a payment's would.
    const pool = new Pool({ connectionString: database.url, max: 1 });
    let statements = 0;
    const racing = {
      query: async (config: QueryConfig) => {
        if (statements++ === 1)
          await query(
            db,
            sql(`UPDATE rental_records SET updated_at = now() WHERE uuid = $1
                 -- owner-bypass: any write of the rental's row between billing's read and its write, as rentals' own would be`),
            [changed],
          );
        // eslint-disable-next-line no-restricted-syntax -- billing's own statement, passed on as it came
        return pool.query(config);
      },
    } as unknown as ClientBase;
    const billed = await billRentals(racing, [unchanged, changed], '2026-02-10', { postedOn: '2026-02-10', source: 'test' }).finally(() => pool.end());
    expect(billed).toEqual({ billed: [unchanged], changed: [changed], charges: 2 });
    expect(await summary(unchanged)).toHaveLength(3);
    expect(await summary(changed)).toEqual([]);
    expect(await bill([changed], '2026-02-10')).toEqual({ billed: [changed], changed: [], charges: 2 });
    expect(await summary(changed)).toEqual(await summary(unchanged));
  });

  it('leaves a rental that moved out, or is not due yet, alone', async () => {
    const movedOut = await rental();
    await query(
      db,
      sql(`UPDATE rental_records SET status = 'MOVED_OUT', end_date = '2026-02-01' WHERE uuid = $1
           -- owner-bypass: rentals' endRental, which this package's tests cannot reach (@storage/rentals depends on it: a workspace cycle)`),
      [movedOut],
    );
    const notDue = await rental();
    expect(await bill([movedOut, notDue], '2026-02-09')).toEqual({ billed: [], changed: [], charges: 0 });
    expect(await bill([movedOut], '2026-06-01')).toEqual({ billed: [], changed: [], charges: 0 });
    expect(await summary(movedOut)).toEqual([]);
  });
});
