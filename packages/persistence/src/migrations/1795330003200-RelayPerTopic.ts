import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A relay per topic publishes every app's rows of its topic (position `relay:<topic>`) instead of a relay per app
 * (`relay:<service>`): two apps' relays sent one rental's events to Kafka in the order each relay got to them, not
 * the order they were committed in. Each topic's relay starts where the furthest-behind app's relay stopped, so
 * nothing unpublished is skipped; the rows other apps' relays had already sent past that point are sent again,
 * which consumers dedupe by event id. A topic with no row yet starts at the beginning of the log.
 */
export class RelayPerTopic1795330003200 implements MigrationInterface {
  name = 'RelayPerTopic1795330003200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      WITH apps AS (
        SELECT consumer_group, position FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%'
      ), furthest_behind AS (
        SELECT min(coalesce(a.position, 0)) AS position
          FROM (SELECT DISTINCT source FROM "outbox") s LEFT JOIN apps a ON a.consumer_group = 'relay:' || s.source
      )
      INSERT INTO "consumer_offsets" (consumer_group, position)
      SELECT 'relay:' || t.topic, (SELECT position FROM furthest_behind) FROM (SELECT DISTINCT topic FROM "outbox") t
       WHERE EXISTS (SELECT FROM apps)`);
    // Topics are dotted ('storage.billing.v1'), service names are not.
    await queryRunner.query(`DELETE FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%' AND consumer_group NOT LIKE 'relay:%.%'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO "consumer_offsets" (consumer_group, position)
      SELECT 'relay:' || s.source, p.position
        FROM (SELECT DISTINCT source FROM "outbox") s,
             (SELECT min(position) AS position FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%.%') p
       WHERE p.position IS NOT NULL`);
    await queryRunner.query(`DELETE FROM "consumer_offsets" WHERE consumer_group LIKE 'relay:%.%'`);
  }
}
