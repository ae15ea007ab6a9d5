import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A facility's business-day runs (`delinquency_runs`: where the scheduler's catch-up resumes) are a part of the
 * facility, not history of its tenants: they go with it (ON DELETE CASCADE, as its delinquency schedule does). A
 * facility with rentals or leads is still refused by theirs. This is what lets the demo seed replace its portfolio
 * through the owners: the api deletes its facilities, and the scheduler's rows go by the key, never by api SQL
 * (docs/ARCHITECTURE.md, "Who writes each table"). A key ForeignKeys left NOT VALID (orphans) stays NOT VALID.
 */
export class DelinquencyRunsGoWithFacility1795330002650 implements MigrationInterface {
  name = 'DelinquencyRunsGoWithFacility1795330002650';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replaceKey(queryRunner, 'CASCADE');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replaceKey(queryRunner, 'NO ACTION');
  }

  private async replaceKey(queryRunner: QueryRunner, onDelete: 'CASCADE' | 'NO ACTION'): Promise<void> {
    const [{ validated }] = (await queryRunner.query(
      `SELECT convalidated AS validated FROM pg_constraint WHERE conname = 'delinquency_runs_facility_uuid_fkey' AND conrelid = 'delinquency_runs'::regclass`,
    )) as { validated: boolean }[];
    await queryRunner.query(`ALTER TABLE "delinquency_runs" DROP CONSTRAINT "delinquency_runs_facility_uuid_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "delinquency_runs" ADD CONSTRAINT "delinquency_runs_facility_uuid_fkey" FOREIGN KEY ("facility_uuid")
       REFERENCES "facilities" ("uuid") ON DELETE ${onDelete} DEFERRABLE INITIALLY IMMEDIATE NOT VALID`,
    );
    if (validated) await queryRunner.query(`ALTER TABLE "delinquency_runs" VALIDATE CONSTRAINT "delinquency_runs_facility_uuid_fkey"`);
  }
}
