import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's limit of deliveries in flight holds across dispatcher replicas: the claims and the fan-out ask
 * `webhook_endpoint_room` how many more of its messages may be taken now. It counts the endpoint's live leases
 * (claimed, lease not run out, whichever replica holds them; `settled` names the caller's attempts finished but not yet
 * recorded, which hold no slot) under a transaction-level advisory lock of the endpoint.
 * Being VOLATILE, its count reads a snapshot taken after the lock is granted, so it sees every claim committed before,
 * and a claim in progress holds the lock: two claims never both see the same free slots. The callers take the locks of
 * several endpoints in the order of their ids, so two statements cannot wait for each other. Lock space 7302 is the
 * dispatcher's.
 */
export class EndpointRoomAcrossReplicas1795330003900 implements MigrationInterface {
  name = 'EndpointRoomAcrossReplicas1795330003900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_messages_endpoint_claimed" ON "webhook_messages" ("endpoint_id", "next_attempt_at") WHERE status = 'pending' AND claimed`,
    );
    await queryRunner.query(`
      CREATE FUNCTION webhook_endpoint_room(endpoint uuid, max_in_flight int, now timestamptz, settled text[]) RETURNS int
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(7302, hashtext(endpoint::text));
        RETURN greatest(max_in_flight - (
          SELECT count(*) FROM webhook_messages m
          WHERE m.endpoint_id = endpoint AND m.status = 'pending' AND m.claimed AND m.next_attempt_at > now AND m.id <> ALL(settled)), 0);
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_endpoint_room(uuid, int, timestamptz, text[])`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_messages_endpoint_claimed"`);
  }
}
