import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox keeps each envelope as its producer wrote it (`json`: the text, checked to be JSON) instead of
 * `jsonb`. Nothing queries inside a stored envelope: the relay and the log reader pass it on whole, so `jsonb`'s
 * binary form was built on every insert and turned back into text on every read for nothing, about half of an
 * outbox row's insert. Events are published with their fields in the order the producer wrote them, too.
 */
export class OutboxEnvelopesAsWritten1795330002900 implements MigrationInterface {
  name = 'OutboxEnvelopesAsWritten1795330002900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" ALTER COLUMN "envelope" TYPE json USING "envelope"::json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" ALTER COLUMN "envelope" TYPE jsonb USING "envelope"::jsonb`);
  }
}
