import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CHARGES_SKIP_THE_WALK_TRIGGER, RENTAL_CHECKED_BY_BALANCE_TRIGGER } from './shared/ledger-balance';

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
