import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The api's rate limits (issue 14), shared by its replicas: one row per bucket (an API key and a route class, a
 * client address, a person's verification codes), holding the GCRA state, the theoretical arrival time `tat_ms`
 * (epoch milliseconds of the database clock). Owned by the api (`src/rate-limit`), which updates a row with one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` per check.
 *
 * UNLOGGED: the counters are written on hot paths and are worth nothing after a crash (a crash empties the table,
 * which only gives every client its full burst again), so they skip the WAL and its flush at each commit.
 */
export class ApiRateLimits1795330001340 implements MigrationInterface {
  name = 'ApiRateLimits1795330001340';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE UNLOGGED TABLE "api_rate_limits" (
      "bucket" text PRIMARY KEY,
      "tat_ms" double precision NOT NULL,
      "granted" integer NOT NULL,
      "taken_at_ms" double precision NOT NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_rate_limits"`);
  }
}
