import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys of scope `admin` (issue 16): they reach every portfolio with write rights and alone may create or
 * rename portfolios, so an operator can onboard a portfolio before it has a key of its own.
 */
export class AdminApiKeys1795330001400 implements MigrationInterface {
  name = 'AdminApiKeys1795330001400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."api_key_scope" ADD VALUE IF NOT EXISTS 'admin'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // PostgreSQL cannot drop an enum value: the type is rebuilt without it, and admin keys go with it.
    await queryRunner.query(`DELETE FROM "api_keys" WHERE "scope" = 'admin'`);
    await queryRunner.query(`ALTER TYPE "public"."api_key_scope" RENAME TO "api_key_scope_old"`);
    await queryRunner.query(`CREATE TYPE "public"."api_key_scope" AS ENUM('read', 'write')`);
    await queryRunner.query(`ALTER TABLE "api_keys" ALTER COLUMN "scope" TYPE "public"."api_key_scope" USING "scope"::text::"public"."api_key_scope"`);
    await queryRunner.query(`DROP TYPE "public"."api_key_scope_old"`);
  }
}
