import type { MigrationInterface, QueryRunner } from 'typeorm';
import { balanceTrigger, WALK_TO_OLDEST_OPEN } from './shared/ledger-balance';

/**
 * The oldest open charge in time with the rental's open charges, not its history. The balance trigger walked back
 * from the newest charge through every charge the rental ever had (each of them fetched, summed, then the first
 * reaching the balance kept), so posting a month's rent to a ten-year tenancy read 240 rows, and a business day's
 * billing cost grew with how long its tenants had stayed: 12 paid months made the database's part of a run 67 % dearer.
 *
 * Now the charges are read newest first from an index in that order, summed as they come, and the walk stops at the
 * first that reaches the balance: it reads the open charges (and, paid up, none). The same charge as before: the
 * running sum only grows along the walk (charges net of their credits, those left with nothing excluded), so the
 * first to reach the balance is the one with the smallest sum that does.
 */
export class LedgerWalksOpenChargesOnly1795330002700 implements MigrationInterface {
  name = 'LedgerWalksOpenChargesOnly1795330002700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "rental_ledger_entries_charges_newest_first" ON "rental_ledger_entries" ("rental_record_uuid", "due_on" DESC, "seq" DESC) WHERE "due_on" IS NOT NULL`,
    );
    await queryRunner.query(balanceTrigger(WALK_TO_OLDEST_OPEN));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(balanceTrigger(WALK_WHOLE_LEDGER));
    await queryRunner.query(`DROP INDEX "rental_ledger_entries_charges_newest_first"`);
  }
}

/** Migration LedgerMovesNextDueDate's walk: every charge of the rental, then the smallest running sum reaching the balance. */
const WALK_WHOLE_LEDGER = `
  SELECT c.due_on FROM (
    SELECT n.due_on, sum(n.net) OVER (ORDER BY n.due_on DESC, n.seq DESC) AS open_from_here
      FROM (SELECT e.due_on, e.seq,
                   e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net
              FROM rental_ledger_entries e
             WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL) n
     WHERE n.net > 0) c
   WHERE m.balance > 0 AND c.open_from_here >= m.balance
   ORDER BY c.open_from_here LIMIT 1`;
