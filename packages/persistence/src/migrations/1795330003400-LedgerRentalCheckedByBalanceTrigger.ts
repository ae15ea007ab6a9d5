import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CHARGES_SKIP_THE_WALK_TRIGGER, walkToOldestOpen } from './shared/ledger-balance';

/** Migration LedgerChargesSkipTheWalk's balance trigger, with the rental checked and read once. */
const BALANCE_TRIGGER = `
  CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    locked bigint;
  BEGIN
    PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
    GET DIAGNOSTICS locked = ROW_COUNT;
    -- An entry naming a rental that is not there is refused as the foreign key refused it (23503, under its name).
    IF locked < (SELECT count(DISTINCT a.rental_record_uuid) FROM added a) THEN
      RAISE EXCEPTION 'insert or update on table "rental_ledger_entries" violates foreign key constraint "rental_ledger_entries_rental_record_uuid_fkey"'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'rental_ledger_entries', CONSTRAINT = 'rental_ledger_entries_rental_record_uuid_fkey',
              DETAIL = 'An entry names a rental record that does not exist.';
    END IF;
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
 * The balance trigger checks an entry's rental, in place of a foreign key, and reads each rental once.
 *
 * The trigger locks every rental its statement posts to and updates it anyway; the foreign key checked each entry
 * again, one lookup and lock of the rental per entry (about a tenth of billing's database time on a billing day).
 * Same guarantees: the trigger refuses an entry whose rental is not there (fewer rentals locked than named: 23503
 * under the key's name), and its lock (FOR NO KEY UPDATE, stronger than the key's FOR KEY SHARE) holds off a
 * concurrent delete until the posting commits, after which a delete finds the entries. Deleting a rental still takes
 * its ledger with it (`rental_ledger_goes_with_rental`, as the key's ON DELETE CASCADE did: rentals are deleted only
 * with their portfolio, `forgetRentals`).
 *
 * And the update's own row gives the rental's balance before the statement's entries, where the trigger joined the
 * rentals a second time for it (an index lookup per rental). Same answers: the rentals are locked first, as before, so
 * the update's row is the one the join read. The rest is migration LedgerChargesSkipTheWalk's, whose comment says when
 * a posting of charges skips the walk to the oldest open charge.
 */
export class LedgerRentalCheckedByBalanceTrigger1795330003400 implements MigrationInterface {
  name = 'LedgerRentalCheckedByBalanceTrigger1795330003400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(BALANCE_TRIGGER);
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

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "rental_ledger_entries" ADD CONSTRAINT "rental_ledger_entries_rental_record_uuid_fkey" FOREIGN KEY ("rental_record_uuid")
         REFERENCES "rental_records" ("uuid") ON DELETE CASCADE`,
    );
    await queryRunner.query(`DROP TRIGGER "rental_ledger_goes_with_rental" ON "rental_records"`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_goes_with_rental"()`);
    await queryRunner.query(CHARGES_SKIP_THE_WALK_TRIGGER);
  }
}
