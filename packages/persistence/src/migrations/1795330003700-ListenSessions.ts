import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `webhooks listen` sessions are endpoints of their own kind: `listen_api_key` names the key that opened one (null for
 * a subscription), `listener` the dispatcher replica holding its stream (null while it reconnects: its messages then
 * wait, unclaimed) and `listener_seen_at` when that replica last vouched for it (a session unseen for a while is swept).
 */
export class ListenSessions1795330003700 implements MigrationInterface {
  name = 'ListenSessions1795330003700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "listen_api_key" uuid`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "listener" text`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "listener_seen_at" timestamptz`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "ck_webhook_endpoints_listen" CHECK ((listen_api_key IS NULL) = (listener_seen_at IS NULL) AND (listener IS NULL OR listen_api_key IS NOT NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "webhook_endpoints" WHERE listen_api_key IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "ck_webhook_endpoints_listen"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "listener_seen_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "listener"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "listen_api_key"`);
  }
}
