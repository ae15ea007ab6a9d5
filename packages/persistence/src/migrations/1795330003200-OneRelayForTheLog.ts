import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One relay publishes every app's outbox rows (position `relay:kafka`) instead of one relay an app
 * (`relay:<service>`): two apps' relays sent one rental's events to Kafka in the order each relay got to them, not
 * the order they were committed in. The one relay starts where the furthest-behind app's relay stopped, so nothing
 * unpublished is skipped; the rows other apps' relays had already sent past that point are sent again, which
 * consumers dedupe by event id.
 */
export class OneRelayForTheLog1795330003200 implements MigrationInterface {
  name = 'OneRelayForTheLog1795330003200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      WITH relays AS (
        SELECT consumer_group, position FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%'
      ), furthest_behind AS (
        SELECT min(coalesce(r.position, 0)) AS position
          FROM (SELECT DISTINCT source FROM "outbox") s LEFT JOIN relays r ON r.consumer_group = 'relay:' || s.source
      )
      INSERT INTO "consumer_offsets" (consumer_group, position)
      SELECT 'relay:kafka', coalesce((SELECT position FROM furthest_behind), (SELECT max(position) FROM relays))
       WHERE EXISTS (SELECT FROM relays)`);
    await queryRunner.query(`DELETE FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%' AND consumer_group <> 'relay:kafka'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO "consumer_offsets" (consumer_group, position)
      SELECT 'relay:' || s.source, g.position
        FROM (SELECT DISTINCT source FROM "outbox") s JOIN "consumer_offsets" g ON g.consumer_group = 'relay:kafka'`);
    await queryRunner.query(`DELETE FROM "consumer_offsets" WHERE consumer_group = 'relay:kafka'`);
  }
}
