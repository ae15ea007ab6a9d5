import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MessagingBackbone1795316531611 implements MigrationInterface {
  name = 'MessagingBackbone1795316531611';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "consumer_offsets" ("consumer_group" text NOT NULL, "position" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_62185b5504dbd93d7d3057ffedb" PRIMARY KEY ("consumer_group"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "dead_letters" ("id" BIGSERIAL NOT NULL, "consumer_group" text NOT NULL, "topic" text NOT NULL, "event_id" text NOT NULL, "position" bigint NOT NULL, "message" jsonb NOT NULL, "reason" text NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_084e63809483fb0a9c48aae607f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "dead_letters_group_event" ON "dead_letters"  ("consumer_group", "event_id") `);
    await queryRunner.query(
      `CREATE TABLE "outbox" ("id" BIGSERIAL NOT NULL, "topic" text NOT NULL, "key" text, "type" text NOT NULL, "event_id" text NOT NULL, "source" text NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "outbox_event_id" ON "outbox"  ("event_id") `);
    await queryRunner.query(`CREATE INDEX "outbox_created_at" ON "outbox"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "outbox"  ("id") WHERE published_at IS NULL`);
    await queryRunner.query(
      `CREATE TABLE "processed_events" ("consumer_group" text NOT NULL, "event_id" text NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bd41f912d3a0ccd6cb24f0a8c36" PRIMARY KEY ("consumer_group", "event_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "replay_requests" ("id" BIGSERIAL NOT NULL, "consumer_group" text NOT NULL, "from_time" TIMESTAMP WITH TIME ZONE NOT NULL, "to_time" TIMESTAMP WITH TIME ZONE, "redeliver" boolean NOT NULL, "consumed_before" jsonb NOT NULL, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eb5d8ac5961d93fc10c066e29d2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "replay_requests_group" ON "replay_requests"  ("consumer_group", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."replay_requests_group"`);
    await queryRunner.query(`DROP TABLE "replay_requests"`);
    await queryRunner.query(`DROP TABLE "processed_events"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_unpublished"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_event_id"`);
    await queryRunner.query(`DROP TABLE "outbox"`);
    await queryRunner.query(`DROP INDEX "public"."dead_letters_group_event"`);
    await queryRunner.query(`DROP TABLE "dead_letters"`);
    await queryRunner.query(`DROP TABLE "consumer_offsets"`);
  }
}
