import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications keep no secret (issue 14): a message's verification code or signing link is sent, and stored as
 * `[hidden]`. A lease message names its lease (`lease_uuid`), from which a write key's listing rebuilds the link;
 * the `link` column, which held it in clear, goes. Verification codes stored as a bare SHA-256 (a million values,
 * read back by trying them all) are retired: they live 15 minutes, and a tenant asks for a new one.
 */
export class NotificationSecrets1795330001100 implements MigrationInterface {
  name = 'NotificationSecrets1795330001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notifications" ADD "lease_uuid" uuid`);
    await queryRunner.query(
      `UPDATE notifications n SET lease_uuid = l.uuid FROM leases l
       WHERE n.link IS NOT NULL AND l.signing_token = substring(n.link FROM '/leases/sign/([^/?#]+)$')`,
    );
    await queryRunner.query(`UPDATE notifications SET body = replace(body, link, '[hidden]') WHERE link IS NOT NULL AND position(link IN body) > 0`);
    // Any other copy of a signing link, and the codes of check-preexisting.
    await queryRunner.query(
      `UPDATE notifications SET body = regexp_replace(body, '\\S*/leases/sign/[A-Za-z0-9_-]+', '[hidden]', 'g') WHERE body ~ '/leases/sign/[A-Za-z0-9_-]'`,
    );
    await queryRunner.query(
      `UPDATE notifications SET body = regexp_replace(body, 'code is [0-9]{6}', 'code is [hidden]', 'g') WHERE body ~ 'code is [0-9]{6}'`,
    );
    await queryRunner.query(`ALTER TABLE "notifications" DROP COLUMN "link"`);
    await queryRunner.query(
      `UPDATE tenant_verification_codes SET code_hash = 'retired-unsalted', expires_at = least(expires_at, now())
       WHERE code_hash NOT LIKE 'scrypt1:%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The secrets are gone for good: the link comes back empty.
    await queryRunner.query(`ALTER TABLE "notifications" ADD "link" text`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP COLUMN "lease_uuid"`);
  }
}
