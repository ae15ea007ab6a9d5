import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Autopay (issue 13). A rental's autopay is its payment method, `autopay_payment_method` (null: autopay off);
 * `is_autopay_enabled` becomes a column generated from it, so the two can never disagree and no writer sets it.
 * Rentals that had autopay on before have no method the platform knows: they get `pm_on_file`, the method the
 * operator holds for the tenant outside the platform (the embedded payment port approves it; a processor's
 * adapter resolves it or declines), rather than having their autopay silently turned off.
 *
 * `autopay_attempts` is each charge of the business day through the payment port, written before the port is
 * called (as a payment intent): one per rental and due date (unique), its idempotency key given to the port, so
 * a rerun or a crash between the port's answer and its recording never charges twice; `payment_uuid` is the
 * payment an approval records.
 */
export class RentalAutopay1795330001200 implements MigrationInterface {
  name = 'RentalAutopay1795330001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "rental_records" ADD "autopay_payment_method" text CONSTRAINT "rental_records_autopay_payment_method" CHECK (length("autopay_payment_method") BETWEEN 1 AND 100)`,
    );
    await queryRunner.query(`UPDATE "rental_records" SET "autopay_payment_method" = 'pm_on_file' WHERE "is_autopay_enabled"`);
    await queryRunner.query(`ALTER TABLE "rental_records" DROP COLUMN "is_autopay_enabled"`);
    await queryRunner.query(`ALTER TABLE "rental_records" ADD "is_autopay_enabled" boolean GENERATED ALWAYS AS ("autopay_payment_method" IS NOT NULL) STORED`);
    // The business day's autopay finds a facility's autopay rentals without reading the others.
    await queryRunner.query(
      `CREATE INDEX "rental_records_autopay" ON "rental_records" ("facility_uuid") WHERE "autopay_payment_method" IS NOT NULL AND "status" = 'ACTIVE'`,
    );
    await queryRunner.query(`CREATE TYPE "public"."autopay_attempt_status" AS ENUM('PENDING', 'APPROVED', 'DECLINED')`);
    await queryRunner.query(`CREATE TABLE "autopay_attempts" (
      "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rental_record_uuid" uuid NOT NULL REFERENCES "rental_records" ("uuid") ON DELETE CASCADE,
      "due_on" date NOT NULL,
      "payment_method" text NOT NULL,
      "amount_in_pennies" integer NOT NULL CHECK ("amount_in_pennies" > 0),
      "idempotency_key" text NOT NULL,
      "payment_uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
      "status" "public"."autopay_attempt_status" NOT NULL DEFAULT 'PENDING',
      "processor_reference" text,
      "decline_reason" text,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "completed_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_autopay_attempts" PRIMARY KEY ("uuid"),
      CONSTRAINT "autopay_attempts_rental_due_on" UNIQUE ("rental_record_uuid", "due_on"),
      CONSTRAINT "autopay_attempts_idempotency_key" UNIQUE ("idempotency_key"),
      CONSTRAINT "autopay_attempts_outcome" CHECK (("status" = 'DECLINED') = ("decline_reason" IS NOT NULL) AND ("status" = 'PENDING') = ("completed_at" IS NULL))
    )`);
    await queryRunner.query(`CREATE INDEX "autopay_attempts_pending" ON "autopay_attempts" ("rental_record_uuid") WHERE "status" = 'PENDING'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "autopay_attempts"`);
    await queryRunner.query(`DROP TYPE "public"."autopay_attempt_status"`);
    await queryRunner.query(`DROP INDEX "rental_records_autopay"`);
    await queryRunner.query(`ALTER TABLE "rental_records" DROP COLUMN "is_autopay_enabled"`);
    await queryRunner.query(`ALTER TABLE "rental_records" ADD "is_autopay_enabled" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`UPDATE "rental_records" SET "is_autopay_enabled" = true WHERE "autopay_payment_method" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "rental_records" DROP COLUMN "autopay_payment_method"`);
  }
}
