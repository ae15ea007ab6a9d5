import type { DataSource } from 'typeorm';
import { balanceOf, pastDueSince } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { asLedgerLines, ledgerEntries } from '../../src';

/** The balance is the sum of the entries, and the oldest open charge's due date the domain's `pastDueSince`. */
export async function expectBalanceIsSumOfEntries(db: DataSource, rentalRecordUuid: string): Promise<void> {
  const lines = asLedgerLines(await ledgerEntries(db.manager, rentalRecordUuid));
  const [row] = await query(
    db,
    sql<{ balance: number; oldestOpenDueOn: string | null }>(
      'SELECT balance_in_pennies AS balance, oldest_open_due_on::text AS "oldestOpenDueOn" FROM rental_records WHERE uuid = $1',
    ),
    [rentalRecordUuid],
  );
  expect(row).toEqual({ balance: balanceOf(lines), oldestOpenDueOn: pastDueSince(lines) });
}
