import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RENTAL_CHECKED_BY_BALANCE_TRIGGER, walkToOldestOpen } from './shared/ledger-balance';

/** Migration LedgerRentalCheckedByBalanceTrigger's balance trigger without its check of the rentals: the key checks them. */
const BALANCE_TRIGGER = `
  CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
    UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + m.amount,
           oldest_open_due_on = CASE
             WHEN m.charges_only AND (r.balance_in_pennies = 0 OR (r.balance_in_pennies > 0 AND r.oldest_open_due_on IS NOT NULL))
                  AND coalesce((SELECT e.due_on < m.earliest_due FROM rental_ledger_entries e
                                 WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL
                                 ORDER BY e.due_on DESC, e.seq DESC OFFSET m.entries LIMIT 1), true)
               THEN CASE WHEN r.balance_in_pennies > 0 THEN r.oldest_open_due_on ELSE m.earliest_due END
             ELSE (${walkToOldestOpen('(r.balance_in_pennies + m.amount)')})
           END,
           next_due_date = greatest(r.next_due_date, m.charged_through), updated_at = now()
      FROM (SELECT a.rental_record_uuid AS uuid, sum(a.amount_in_pennies) AS amount,
                   max(a.period_to) FILTER (WHERE a.kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM')) AS charged_through,
                   bool_and(a.due_on IS NOT NULL) AS charges_only, min(a.due_on) AS earliest_due, count(*) AS entries
              FROM added a GROUP BY 1) m
     WHERE r.uuid = m.uuid;
    RETURN NULL;
  END $$`;

/**
 * The ledger's foreign key to its rental is back, in place of the balance trigger's imitation of it
 * (LedgerRentalCheckedByBalanceTrigger), as it was first: ON DELETE CASCADE (a rental's deletion takes its entries,
 * which the append-only trigger lets go once the rental is gone) and not deferrable (the balance trigger must find the
 * rental of every entry at the end of the statement, whatever a transaction defers). The key refuses an entry naming
 * no rental with its own 23503, under the same name, before the balance trigger runs; the trigger still locks the
 * statement's rentals in rental order before it updates them. Measured against the imitation on the worst day:
 * docs/benchmarks/delinquency-scheduler.md.
 */
export class LedgerForeignKeyRestored1795330004000 implements MigrationInterface {
  name = 'LedgerForeignKeyRestored1795330004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "rental_ledger_entries" ADD CONSTRAINT "rental_ledger_entries_rental_record_uuid_fkey" FOREIGN KEY ("rental_record_uuid")
         REFERENCES "rental_records" ("uuid") ON DELETE CASCADE`,
    );
    await queryRunner.query(`DROP TRIGGER "rental_ledger_goes_with_rental" ON "rental_records"`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_goes_with_rental"()`);
    await queryRunner.query(BALANCE_TRIGGER);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(RENTAL_CHECKED_BY_BALANCE_TRIGGER);
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_goes_with_rental"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM rental_ledger_entries e WHERE e.rental_record_uuid IN (SELECT g.uuid FROM gone g);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_ledger_goes_with_rental" AFTER DELETE ON "rental_records"
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION rental_ledger_goes_with_rental()`);
    await queryRunner.query(`ALTER TABLE "rental_ledger_entries" DROP CONSTRAINT "rental_ledger_entries_rental_record_uuid_fkey"`);
  }
}
