import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a relay has published is its saved position (`consumer_offsets`, `relay:<service>`), saved only after Kafka
 * acknowledged everything up to it. Marking each row `published_at` as well updated every event once more, and not
 * as a heap-only update (the column is in the `outbox_unpublished` index's predicate): a second row version and
 * index entries per event, and a dead one for vacuum. Lag and retention read the position instead.
 */
export class OutboxPublishedByPosition1795330003100 implements MigrationInterface {
  name = 'OutboxPublishedByPosition1795330003100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "outbox_unpublished"`);
    await queryRunner.query(`ALTER TABLE "outbox" DROP COLUMN "published_at"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" ADD "published_at" TIMESTAMP WITH TIME ZONE`);
    // The rows each relay has passed, as published now: the time they were is not kept.
    await queryRunner.query(`
      UPDATE "outbox" o SET "published_at" = now()
        FROM "consumer_offsets" g WHERE g."consumer_group" = 'relay:' || o."source" AND o."id" <= g."position"`);
    await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "outbox" ("id") WHERE published_at IS NULL`);
  }
}
