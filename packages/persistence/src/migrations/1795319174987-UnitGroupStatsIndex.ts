import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operation 7 averages the rents of a unit group's active rentals: a partial covering index makes that an
 * index-only scan instead of one heap page per rental. TypeORM cannot declare INCLUDE, so the entity
 * (`RentalRecord`) names the index with `synchronize: false` and this migration owns it.
 */
export class UnitGroupStatsIndex1795319174987 implements MigrationInterface {
  name = 'UnitGroupStatsIndex1795319174987';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_rental_records_active_rent_by_group" ON "rental_records" ("unit_group_uuid") INCLUDE ("rent_in_pennies") WHERE "status" = 'ACTIVE'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_rental_records_active_rent_by_group"`);
  }
}
