/*
 * The balance trigger's SQL that more than one migration writes. Not a migration itself: TypeORM loads every export
 * of the files directly in migrations/ as one.
 */

/**
 * Newest first, one charge at a time, stopping at the first whose running sum reaches the balance: each
 * step is the next older charge left owing something, found by the index in walk order (a LIMIT 1 the planner
 * answers from the index, whatever it estimates of the rental's history). `balance` is an SQL expression.
 */
export const walkToOldestOpen = (balance: string): string => `
  WITH RECURSIVE walk (due_on, seq, open_from_here) AS (
    (${nextChargeOwing(`${balance} > 0`)})
    UNION ALL
    (SELECT c.due_on, c.seq, w.open_from_here + c.net
       FROM walk w CROSS JOIN LATERAL (${nextChargeOwing('(e.due_on, e.seq) < (w.due_on, w.seq)')}) c
      WHERE w.open_from_here < ${balance}))
  SELECT walk.due_on FROM walk WHERE walk.open_from_here >= ${balance}`;

/** The walk of the rental `m.uuid` to the balance `m.balance`. */
export const WALK_TO_OLDEST_OPEN = walkToOldestOpen('m.balance');

/** The rental's (`m.uuid`) newest charge matching `where` that is left owing something net of its credits. */
function nextChargeOwing(where: string): string {
  return `
  SELECT e.due_on, e.seq, n.net
    FROM rental_ledger_entries e
   CROSS JOIN LATERAL (SELECT e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net) n
   WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL AND n.net > 0 AND ${where}
   ORDER BY e.due_on DESC, e.seq DESC LIMIT 1`;
}

/** The balance trigger of migration LedgerMovesNextDueDate, with the given walk to the oldest open charge. */
export const balanceTrigger = (walk: string): string => `
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
      LEFT JOIN LATERAL (${walk}) o ON true
     WHERE r.uuid = m.uuid;
    RETURN NULL;
  END $$`;

/** The balance trigger of migration LedgerChargesSkipTheWalk (its comment says why a posting of charges alone skips the walk). */
export const CHARGES_SKIP_THE_WALK_TRIGGER = `
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
      END $$`;

/** The balance trigger of migration LedgerRentalCheckedByBalanceTrigger: LedgerChargesSkipTheWalk's, with the rental checked and read once. */
export const RENTAL_CHECKED_BY_BALANCE_TRIGGER = `
  CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    locked bigint;
  BEGIN
    PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
    GET DIAGNOSTICS locked = ROW_COUNT;
    -- An entry naming a rental that is not there is refused as the foreign key refused it (23503, under its name).
    IF locked < (SELECT count(DISTINCT a.rental_record_uuid) FROM added a) THEN
      RAISE EXCEPTION 'insert or update on table "rental_ledger_entries" violates foreign key constraint "rental_ledger_entries_rental_record_uuid_fkey"'
        USING ERRCODE = 'foreign_key_violation', TABLE = 'rental_ledger_entries', CONSTRAINT = 'rental_ledger_entries_rental_record_uuid_fkey',
              DETAIL = 'An entry names a rental record that does not exist.';
    END IF;
    UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + m.amount,
           oldest_open_due_on = CASE
             WHEN m.charges_only AND (r.balance_in_pennies = 0 OR (r.balance_in_pennies > 0 AND r.oldest_open_due_on IS NOT NULL))
                  AND coalesce((SELECT e.due_on < m.earliest_due FROM rental_ledger_entries e
                                 WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL
                                 ORDER BY e.due_on DESC, e.seq DESC OFFSET m.entries LIMIT 1), true)
               THEN CASE WHEN r.balance_in_pennies > 0 THEN r.oldest_open_due_on ELSE m.earliest_due END
             ELSE (${walkToOldestOpen('(r.balance_in_pennies + m.amount)')})
           END,
           next_due_date = greatest(r.next_due_date, m.charged_through), updated_at = now()
      FROM (SELECT a.rental_record_uuid AS uuid, sum(a.amount_in_pennies) AS amount,
                   max(a.period_to) FILTER (WHERE a.kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM')) AS charged_through,
                   bool_and(a.due_on IS NOT NULL) AS charges_only, min(a.due_on) AS earliest_due, count(*) AS entries
              FROM added a GROUP BY 1) m
     WHERE r.uuid = m.uuid;
    RETURN NULL;
  END $$`;
