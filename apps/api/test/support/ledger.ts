import type { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { postEntries } from '@storage/rental-ledger';
import { query, sql } from '@storage/persistence';

/**
 * From now the rental owes exactly `amountInPennies`, rent due on `dueOn`, and nothing else: its ledger starts
 * over. Payments cover the oldest charges first, so a debt older than the demo's paid month can only be the
 * oldest open charge on a ledger without that month: the fixture clears the rental's entries with the ledger's
 * triggers off (a test database's owner may), then posts the charge through the ledger like any writer.
 */
export async function owe(db: DataSource, rentalRecordUuid: string, amountInPennies: number, dueOn: CalendarDate): Promise<void> {
  await db.transaction(async (manager) => {
    await query(manager, sql(`SET LOCAL session_replication_role = replica`));
    await query(
      manager,
      sql('DELETE FROM rental_ledger_entries WHERE rental_record_uuid = $1 -- owner-bypass: the ledger starts over, which its append-only owner refuses'),
      [rentalRecordUuid],
    );
    await query(
      manager,
      sql(
        "UPDATE rental_records SET balance_in_pennies = 0, oldest_open_due_on = NULL WHERE uuid = $1 -- owner-bypass: what the ledger's trigger keeps, for the cleared ledger",
      ),
      [rentalRecordUuid],
    );
    await query(manager, sql(`SET LOCAL session_replication_role = origin`));
    await postEntries(manager, rentalRecordUuid, [{ kind: 'RENT', description: 'Rent', amountInPennies, postedOn: dueOn, dueOn }]);
  });
}
