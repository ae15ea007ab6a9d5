import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DelinquencyAndAuctions1795316984386 implements MigrationInterface {
  name = 'DelinquencyAndAuctions1795316984386';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "delinquency_runs" ("facility_uuid" uuid NOT NULL, "business_date" date NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP WITH TIME ZONE, "transitions" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_acedea94d619ec77d48ae540a5d" PRIMARY KEY ("facility_uuid", "business_date"))`,
    );
    await queryRunner.query(`CREATE TYPE "public"."auction_stage" AS ENUM('CREATED', 'SCHEDULED', 'CANCELED', 'COMPLETED')`);
    await queryRunner.query(
      `CREATE TABLE "auctions" ("uuid" uuid NOT NULL, "rental_record_uuid" uuid NOT NULL, "delinquency_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "stage" "public"."auction_stage" NOT NULL, "scheduled_on" date NOT NULL, "start_date" date NOT NULL, "end_date" date NOT NULL, "canceled_on" date, "completed_on" date, "minimum_bid_in_pennies" integer NOT NULL, "winning_bid_in_pennies" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6d8687e7a31014860c14637c2bf" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_6218ec86ec3ade806ce076e1ae" ON "auctions"  ("rental_record_uuid") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_08291eb3d9c8be08787f3ab12c" ON "auctions"  ("rental_record_uuid") WHERE stage IN ('CREATED', 'SCHEDULED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "delinquency_schedules" ("facility_uuid" uuid NOT NULL, "grace_days" integer NOT NULL, "overlock_day" integer NOT NULL, "lien_day" integer NOT NULL, "auction_day" integer NOT NULL, "late_fee_in_pennies" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a488124c298ae92551e94c95948" PRIMARY KEY ("facility_uuid"))`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."rental_delinquency_status" AS ENUM('CURRENT', 'OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION', 'PAID', 'PAUSED', 'WRITTEN_OFF')`,
    );
    await queryRunner.query(
      `CREATE TABLE "delinquencies" ("rental_record_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "delinquency_uuid" uuid NOT NULL, "status" "public"."rental_delinquency_status" NOT NULL, "paused_from" "public"."rental_delinquency_status", "past_due_since" date, "status_changed_on" date, "last_business_date" date, "written_off_in_pennies" integer NOT NULL DEFAULT '0', "last_event_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_95530b06c4a0f34f9971dff45ce" PRIMARY KEY ("rental_record_uuid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "gate_code_suspensions" ("rental_record_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "suspended_on" date NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f211ce2fd09a9842aa678e5b822" PRIMARY KEY ("rental_record_uuid"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gate_code_suspensions"`);
    await queryRunner.query(`DROP TABLE "delinquencies"`);
    await queryRunner.query(`DROP TYPE "public"."rental_delinquency_status"`);
    await queryRunner.query(`DROP TABLE "delinquency_schedules"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_08291eb3d9c8be08787f3ab12c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6218ec86ec3ade806ce076e1ae"`);
    await queryRunner.query(`DROP TABLE "auctions"`);
    await queryRunner.query(`DROP TYPE "public"."auction_stage"`);
    await queryRunner.query(`DROP TABLE "delinquency_runs"`);
  }
}
