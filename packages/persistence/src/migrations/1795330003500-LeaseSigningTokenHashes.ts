import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A lease keeps the SHA-256 (hex) of its signing token, not the token: reading the database no longer signs
 * leases. Stored tokens are hashed in place, so links already sent still open their leases.
 */
export class LeaseSigningTokenHashes1795330003500 implements MigrationInterface {
  name = 'LeaseSigningTokenHashes1795330003500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "leases" ADD "signing_token_hash" text`);
    await queryRunner.query(`UPDATE leases SET signing_token_hash = encode(sha256(convert_to(signing_token, 'UTF8')), 'hex')`);
    await queryRunner.query(`ALTER TABLE "leases" ALTER COLUMN "signing_token_hash" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e848bd713d65adbee82a2b3e14"`);
    await queryRunner.query(`ALTER TABLE "leases" DROP COLUMN "signing_token"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_b817f6f8ec329fbb1c1ac77e7d" ON "leases" ("signing_token_hash") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The tokens cannot be read back from their hashes: each lease gets a new random one (two random uuids, 64 hex
    // digits). Links sent before no longer open; sending a lease again sends its new link.
    await queryRunner.query(`ALTER TABLE "leases" ADD "signing_token" text`);
    await queryRunner.query(`UPDATE leases SET signing_token = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`);
    await queryRunner.query(`ALTER TABLE "leases" ALTER COLUMN "signing_token" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b817f6f8ec329fbb1c1ac77e7d"`);
    await queryRunner.query(`ALTER TABLE "leases" DROP COLUMN "signing_token_hash"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e848bd713d65adbee82a2b3e14" ON "leases" ("signing_token") `);
  }
}
