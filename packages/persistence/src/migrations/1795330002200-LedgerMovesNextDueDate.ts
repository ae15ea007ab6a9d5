import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One update of a rental per posting statement. Billing used to update each rental twice in its transaction: its
 * next due date, then the ledger trigger's balance and oldest open charge; the second update of a row its own
 * transaction had just updated cost more than the first, and together they were a third of billing's database time.
 * Now the ledger's trigger moves the next due date too: posting a period's charges (rent, move-in proration,
 * service fee, coverage premium, each with its service period) moves it to the end of their latest period, never
 * back, so a billing statement only locks its rentals (guarded by their row version) and posts. Periods that charge
 * nothing post no entry; billing moves their next due date itself (`@storage/rental-ledger`, `billRentals`).
 *
 * The statement's rentals are locked first, in rental order (two statements posting to the same rentals lock them
 * alike), so the update that follows, with a snapshot taken after the locks, reads every entry committed before
 * them: the oldest open charge is computed from the rental's whole ledger, as `rental_ledger_oldest_open_due` did
 * per rental (a function call with its own snapshot each); the function goes.
 */
export class LedgerMovesNextDueDate1795330002200 implements MigrationInterface {
  name = 'LedgerMovesNextDueDate1795330002200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
        UPDATE rental_records r SET balance_in_pennies = m.balance, oldest_open_due_on = o.due_on,
               next_due_date = greatest(r.next_due_date, m.charged_through), updated_at = now()
          FROM (SELECT r2.uuid, r2.balance_in_pennies + s.amount AS balance, s.charged_through
                  FROM (SELECT a.rental_record_uuid, sum(a.amount_in_pennies) AS amount,
                               max(a.period_to) FILTER (WHERE a.kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM')) AS charged_through
                          FROM added a GROUP BY 1) s
                  JOIN rental_records r2 ON r2.uuid = s.rental_record_uuid) m
          -- The oldest open charge: walking back from the newest charge (net of its promotions' credits), the first
          -- where their sum reaches the balance (its LIMIT keeps it a lookup of each rental's entries by index).
          LEFT JOIN LATERAL (
            SELECT c.due_on FROM (
              SELECT n.due_on, sum(n.net) OVER (ORDER BY n.due_on DESC, n.seq DESC) AS open_from_here
                FROM (SELECT e.due_on, e.seq,
                             e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net
                        FROM rental_ledger_entries e
                       WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL) n
               WHERE n.net > 0) c
             WHERE m.balance > 0 AND c.open_from_here >= m.balance
             ORDER BY c.open_from_here LIMIT 1) o ON true
         WHERE r.uuid = m.uuid;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_oldest_open_due"(uuid, integer)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_oldest_open_due"(rental uuid, balance integer) RETURNS date LANGUAGE sql VOLATILE AS $$
        SELECT c.due_on FROM (
          SELECT n.due_on, sum(n.net) OVER (ORDER BY n.due_on DESC, n.seq DESC) AS open_from_here
            FROM (SELECT e.due_on, e.seq,
                         e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net
                    FROM rental_ledger_entries e
                   WHERE e.rental_record_uuid = rental AND e.due_on IS NOT NULL) n
           WHERE n.net > 0) c
         WHERE balance > 0 AND c.open_from_here >= balance
         ORDER BY c.open_from_here LIMIT 1
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + s.amount,
               oldest_open_due_on = rental_ledger_oldest_open_due(r.uuid, (r.balance_in_pennies + s.amount)::integer), updated_at = now()
          FROM (SELECT rental_record_uuid, sum(amount_in_pennies) AS amount FROM added GROUP BY 1 ORDER BY 1) s
         WHERE r.uuid = s.rental_record_uuid;
        RETURN NULL;
      END $$`);
  }
}
