import type { MigrationInterface, QueryRunner } from 'typeorm';
import { balanceTrigger, WALK_TO_OLDEST_OPEN } from './shared/ledger-balance';

/**
 * A posting of charges alone, each due after every charge the rental already has, leaves the oldest open charge where
 * it was, or, on a rental that owed nothing, makes it the earliest of the new charges: the balance trigger then
 * answers without the walk. That is billing's every posting, and the walk was half the trigger's cost per rental.
 *
 * Why it is the walk's answer: the walk goes newest first, summing charges (net of their credits) until the sum
 * reaches the balance. Charges alone carry no credits, so no net changes, and each new one is positive (the sign
 * check). Each is due after every existing charge, so the walk meets all of them first. Owing nothing before, the
 * new charges sum to the balance: the walk stops at the earliest. Owing something before, they add the same amount
 * to the sum and to the balance: the walk stops where it stopped before, the oldest open charge already stored.
 * Anything else (a payment, a credit, a charge due on or before one the rental has, a rental in credit) walks, as
 * before. The check reads the statement's own charges and the one before them through the index, and never looks
 * rows up among the statement's: without a hash (a plan made for a bulk insert, kept by the session) that compares
 * every row with every other.
 */
export class LedgerChargesSkipTheWalk1795330002800 implements MigrationInterface {
  name = 'LedgerChargesSkipTheWalk1795330002800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
        UPDATE rental_records r SET balance_in_pennies = m.balance,
               oldest_open_due_on = CASE
                 WHEN m.charges_only AND (m.previous_balance = 0 OR (m.previous_balance > 0 AND r.oldest_open_due_on IS NOT NULL))
                      -- No other charge due on or after the earliest new one: the new ones come first in the index's
                      -- order (newest first), and the one after them, if any, is due before. A LIMIT the planner
                      -- answers from the index, whatever it estimates, never a lookup among the statement's rows.
                      AND coalesce((SELECT e.due_on < m.earliest_due FROM rental_ledger_entries e
                                     WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL
                                     ORDER BY e.due_on DESC, e.seq DESC OFFSET m.entries LIMIT 1), true)
                   THEN CASE WHEN m.previous_balance > 0 THEN r.oldest_open_due_on ELSE m.earliest_due END
                 ELSE (${WALK_TO_OLDEST_OPEN})
               END,
               next_due_date = greatest(r.next_due_date, m.charged_through), updated_at = now()
          FROM (SELECT r2.uuid, r2.balance_in_pennies AS previous_balance, r2.balance_in_pennies + s.amount AS balance, s.charged_through,
                       s.charges_only, s.earliest_due, s.entries
                  FROM (SELECT a.rental_record_uuid, sum(a.amount_in_pennies) AS amount,
                               max(a.period_to) FILTER (WHERE a.kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM')) AS charged_through,
                               bool_and(a.due_on IS NOT NULL) AS charges_only, min(a.due_on) AS earliest_due, count(*) AS entries
                          FROM added a GROUP BY 1) s
                  JOIN rental_records r2 ON r2.uuid = s.rental_record_uuid) m
         WHERE r.uuid = m.uuid;
        RETURN NULL;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(balanceTrigger(WALK_TO_OLDEST_OPEN));
  }
}
