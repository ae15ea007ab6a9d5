import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDelivery1795316689622 implements MigrationInterface {
  name = 'WebhookDelivery1795316689622';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "portfolio" text NOT NULL, "vendor_name" text NOT NULL, "url" text NOT NULL, "description" text NOT NULL, "event_types" text array NOT NULL, "facility_uuids" uuid array NOT NULL DEFAULT '{}', "unit_types" uuid array NOT NULL DEFAULT '{}', "amenity_uuids" uuid array NOT NULL DEFAULT '{}', "secret" text NOT NULL, "previous_secret" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "disabled_at" TIMESTAMP WITH TIME ZONE, "disabled_reason" text, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_endpoints_portfolio_vendor" ON "webhook_endpoints"  ("portfolio", "vendor_name") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_endpoints_portfolio_url" ON "webhook_endpoints"  ("portfolio", "url") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_messages" ("id" text NOT NULL, "endpoint_id" uuid NOT NULL, "portfolio" text NOT NULL, "event_id" text NOT NULL, "event_type" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_attempt_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_526e8e1655924920adc4cd30dcd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_messages_endpoint_created" ON "webhook_messages"  ("endpoint_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_webhook_messages_due" ON "webhook_messages"  ("next_attempt_at") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_messages_endpoint_event" ON "webhook_messages"  ("endpoint_id", "event_id") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" BIGSERIAL NOT NULL, "message_id" text NOT NULL, "endpoint_id" uuid NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "succeeded" boolean NOT NULL, "status_code" integer, "error" text, "latency_ms" integer NOT NULL, "response_body" text, "next_attempt_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_endpoint_time" ON "webhook_attempts"  ("endpoint_id", "attempted_at") `);
    await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_message" ON "webhook_attempts"  ("message_id") `);
    await queryRunner.query(
      `ALTER TABLE "webhook_messages" ADD CONSTRAINT "FK_2ebdc23f5ae2b27a09c8446c899" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_7dbf25c6722243e3cb16ef9fb27" FOREIGN KEY ("message_id") REFERENCES "webhook_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_ba3c8606f00614a41a397d17d48" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_ba3c8606f00614a41a397d17d48"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_7dbf25c6722243e3cb16ef9fb27"`);
    await queryRunner.query(`ALTER TABLE "webhook_messages" DROP CONSTRAINT "FK_2ebdc23f5ae2b27a09c8446c899"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_attempts_message"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_attempts_endpoint_time"`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."uq_webhook_messages_endpoint_event"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_messages_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_messages_endpoint_created"`);
    await queryRunner.query(`DROP TABLE "webhook_messages"`);
    await queryRunner.query(`DROP INDEX "public"."uq_webhook_endpoints_portfolio_url"`);
    await queryRunner.query(`DROP INDEX "public"."uq_webhook_endpoints_portfolio_vendor"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
