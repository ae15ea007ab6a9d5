import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans that do not scan a backlog of pending messages, whatever PostgreSQL's statistics say when they are made.
 *
 * - The checks whether a rental's earlier message holds a later one (`holdsBack`, `HOLDS_OTHERS`, the fan-out's) must
 *   use `ix_webhook_messages_ordering`. Statistics taken while no message is pending say both pending-only indexes are
 *   empty, and the planner then took `ix_webhook_messages_endpoint_due` for them, reading an endpoint's whole backlog
 *   per check: a receiver that stopped answering cost PostgreSQL more with every message it missed. The two indexes of
 *   due messages now cover only rows whose `next_attempt_at` is set, which the claims' and the next due time's
 *   conditions on it imply and the checks do not, so they cannot serve them.
 * - Statistics taken while the table is a few rows (a new installation) made the sessions' cached plans read it
 *   whole, and they kept doing so as it grew, until the next ANALYZE. Autovacuum now first looks at the table after
 *   10,000 changed rows; until then the planner assumes a table of some size, and plans with its indexes.
 */
/** The indexes of due messages: for the claims (per endpoint) and for the next due time (all). */
const DUE_INDEXES = [
  ['ix_webhook_messages_endpoint_due', '"endpoint_id", "next_attempt_at"'],
  ['ix_webhook_messages_due', '"next_attempt_at"'],
] as const;

export class PendingMessagePlans1795330003800 implements MigrationInterface {
  name = 'PendingMessagePlans1795330003800';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, columns] of DUE_INDEXES) {
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "webhook_messages" (${columns}) WHERE status = 'pending' AND next_attempt_at IS NOT NULL`);
    }
    await queryRunner.query(
      `ALTER TABLE "webhook_messages" SET (autovacuum_analyze_threshold = 10000, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_threshold = 10000)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_messages" RESET (autovacuum_analyze_threshold, autovacuum_vacuum_threshold, autovacuum_vacuum_insert_threshold)`,
    );
    for (const [name, columns] of DUE_INDEXES) {
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "webhook_messages" (${columns}) WHERE status = 'pending'`);
    }
  }
}
