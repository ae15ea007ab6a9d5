/*
 * The balance trigger's SQL that more than one migration writes. Not a migration itself: TypeORM loads every export
 * of the files directly in migrations/ as one.
 */

/**
 * Newest first, one charge at a time, stopping at the first whose running sum reaches the balance (`m.balance`): each
 * step is the next older charge left owing something, found by the index in walk order (a LIMIT 1 the planner
 * answers from the index, whatever it estimates of the rental's history).
 */
export const WALK_TO_OLDEST_OPEN = `
  WITH RECURSIVE walk (due_on, seq, open_from_here) AS (
    (${nextChargeOwing('m.balance > 0')})
    UNION ALL
    (SELECT c.due_on, c.seq, w.open_from_here + c.net
       FROM walk w CROSS JOIN LATERAL (${nextChargeOwing('(e.due_on, e.seq) < (w.due_on, w.seq)')}) c
      WHERE w.open_from_here < m.balance))
  SELECT walk.due_on FROM walk WHERE walk.open_from_here >= m.balance`;

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
