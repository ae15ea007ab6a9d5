import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RentalLifecycle1795317670527 implements MigrationInterface {
  name = 'RentalLifecycle1795317670527';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payments" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "rental_record_uuid" uuid NOT NULL, "amount_in_pennies" integer NOT NULL, "paid_on" date NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2c540326a039a91fa7e942caed7" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_bec2c71f1ecb672abd0b488bd4" ON "payments"  ("rental_record_uuid") `);
    await queryRunner.query(`ALTER TABLE "rental_records" ADD "last_event_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "rental_records" DROP COLUMN "last_event_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_bec2c71f1ecb672abd0b488bd4"`);
    await queryRunner.query(`DROP TABLE "payments"`);
  }
}
