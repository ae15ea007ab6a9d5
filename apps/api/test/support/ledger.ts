import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { postEntries, type NewLedgerEntry } from '@storage/rental-ledger';

/**
 * From now the rental owes exactly `amountInPennies`, rent due on `dueOn`: what it owed before is paid, and its
 * next due date is that day (delinquency counts from it). Posted through the ledger, the only writer of a balance.
 */
export async function owe(db: DataSource, rentalRecordUuid: string, amountInPennies: number, dueOn: CalendarDate): Promise<void> {
  await db.transaction(async (manager) => {
    const [{ balance }]: { balance: number }[] = await manager.query('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1 FOR UPDATE', [
      rentalRecordUuid,
    ]);
    const entries: NewLedgerEntry[] = [{ kind: 'RENT', description: 'Rent', amountInPennies, postedOn: dueOn, dueOn }];
    if (balance > 0) entries.unshift({ kind: 'PAYMENT', description: 'Payment', amountInPennies: -balance, postedOn: dueOn, dueOn: null, paymentUuid: randomUUID() });
    await postEntries(manager, rentalRecordUuid, entries);
    await manager.query('UPDATE rental_records SET next_due_date = $2 WHERE uuid = $1', [rentalRecordUuid, dueOn]);
  });
}
