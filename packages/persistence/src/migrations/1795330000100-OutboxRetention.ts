import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Messaging: how far outbox retention has pruned (see OutboxRetentionMark). */
export class OutboxRetention1795330000100 implements MigrationInterface {
  name = 'OutboxRetention1795330000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "outbox_retention" ("name" text NOT NULL, "pruned_through_position" bigint NOT NULL, "pruned_through_time" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_54128178c63ab6875f5d215eaba" PRIMARY KEY ("name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "outbox_retention"`);
  }
}
