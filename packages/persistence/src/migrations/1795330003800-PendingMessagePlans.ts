import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans that do not scan a backlog of pending messages. (A table planned for while it was a few rows, as after a new
 * installation, is planned for again once autovacuum analyses it, within a minute or so.)
 *
 * - The checks whether a rental's earlier message holds a later one (`holdsBack`, `HOLDS_OTHERS`, the fan-out's) must
 *   use `ix_webhook_messages_ordering`, and they took others: a pending-only index looks empty to the planner until
 *   PostgreSQL next analyses the table (its size is the one last measured), so the due-message indexes won, and so
 *   did `ix_webhook_messages_endpoint_created` over the ordering index; each read an endpoint's whole backlog per check:
 *   a receiver that stopped answering cost PostgreSQL more with every message it missed. The ordering index now covers
 *   every message, with the status among its columns (its size is the table's, its three equalities the best match),
 *   and the two indexes of due messages cover only rows whose `next_attempt_at` is set, which the claims' and the next
 *   due time's conditions imply and the checks do not, so they cannot serve them.
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
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_messages_ordering"`);
    await queryRunner.query(`CREATE INDEX "ix_webhook_messages_ordering" ON "webhook_messages" ("endpoint_id", "ordering_key", "status", "emission_order")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_messages_ordering"`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_messages_ordering" ON "webhook_messages" ("endpoint_id", "ordering_key", "emission_order") WHERE status = 'pending' AND ordering_key IS NOT NULL`,
    );
    for (const [name, columns] of DUE_INDEXES) {
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "webhook_messages" (${columns}) WHERE status = 'pending'`);
    }
  }
}
