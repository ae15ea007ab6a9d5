import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TypeORM reads a generated column's expression from its own catalog table, `typeorm_metadata`, not from
 * PostgreSQL's (whose text it reformats): without the table the migration generator cannot read `rental_records`,
 * and without the row it takes the column for a new one. The row is what TypeORM writes when it adds the column
 * itself; its expression is the entity's (`RentalRecord.isAutopayEnabled`), word for word.
 */
export class GeneratedColumnExpressions1795330002400 implements MigrationInterface {
  name = 'GeneratedColumnExpressions1795330002400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "typeorm_metadata" ("type" character varying NOT NULL, "database" character varying, "schema" character varying, "table" character varying, "name" character varying, "value" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata" ("type", "database", "schema", "table", "name", "value")
       VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'rental_records', 'is_autopay_enabled', '"autopay_payment_method" IS NOT NULL')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "typeorm_metadata"`);
  }
}
