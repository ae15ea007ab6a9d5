import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing updates every billed rental twice (its next due date, then the ledger trigger's balance and oldest open
 * charge). An update that changes no indexed column and finds room on its page is a heap-only tuple (HOT): no
 * index of `rental_records` is touched. The index on (status, next due date) made every billing update touch all
 * eight of them; nothing reads through it (billing looks a facility's rentals up by `facility_uuid`, delinquency by
 * its candidates), so it goes, and pages keep 15 % free for the new row versions of a billing day.
 * Existing pages get the room as they are rewritten; new ones have it at once.
 */
export class RentalRecordsHotUpdates1795330001500 implements MigrationInterface {
  name = 'RentalRecordsHotUpdates1795330001500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_06fbaeaa726a5ca1cdfbd6dbc0"`);
    await queryRunner.query(`ALTER TABLE "rental_records" SET (fillfactor = 85)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "rental_records" RESET (fillfactor)`);
    await queryRunner.query(`CREATE INDEX "IDX_06fbaeaa726a5ca1cdfbd6dbc0" ON "rental_records" ("status", "next_due_date")`);
  }
}
