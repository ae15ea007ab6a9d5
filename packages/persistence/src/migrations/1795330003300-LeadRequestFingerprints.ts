import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A lead created with an `Idempotency-Key` takes its uuid from the key and keeps the fingerprint of the request that
 * created it, so a retry of that request answers the same lead and a different request under the key is refused,
 * whatever happened to the lead's person since.
 */
export class LeadRequestFingerprints1795330003300 implements MigrationInterface {
  name = 'LeadRequestFingerprints1795330003300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "leads" ADD "request_fingerprint" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "leads" DROP COLUMN "request_fingerprint"`);
  }
}
