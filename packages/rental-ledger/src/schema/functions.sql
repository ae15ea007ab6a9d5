-- The current definition of every function and trigger of @storage/rental-ledger, as PostgreSQL prints it
-- (pg_get_functiondef, pg_get_triggerdef). The migrations in packages/persistence are their history; the test
-- functions-match-homes there checks that the migrated schema has exactly these. Change one with a new migration
-- and here.

-- The one insert of entries: each names its rental; written in the order given; one whose charge key its rental
-- has already is skipped.
CREATE OR REPLACE FUNCTION public.rental_ledger_post(entries json)
 RETURNS TABLE(entry_uuid uuid, rental_record_uuid uuid, amount_in_pennies integer, charge_key text)
 LANGUAGE sql
AS $function$
        INSERT INTO rental_ledger_entries AS l (uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from,
                                                period_to, applies_to, item_type_uuid, promotion_uuid, payment_uuid, charge_key)
        SELECT coalesce(e.uuid, gen_random_uuid()), e.rental_record_uuid, e.kind, e.description, e.amount_in_pennies, e.posted_on, e.due_on,
               e.period_from, e.period_to, e.applies_to, e.item_type_uuid, e.promotion_uuid, e.payment_uuid, e.charge_key
          FROM ROWS FROM (json_to_recordset(coalesce(entries, '[]')) AS (uuid uuid, rental_record_uuid uuid, kind ledger_entry_kind, description text, amount_in_pennies integer, posted_on date,
               due_on date, period_from date, period_to date, applies_to uuid, item_type_uuid uuid, promotion_uuid uuid,
               payment_uuid uuid, charge_key text)) WITH ORDINALITY
               AS e(uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from, period_to, applies_to,
                    item_type_uuid, promotion_uuid, payment_uuid, charge_key, n)
         ORDER BY e.n
        ON CONFLICT (rental_record_uuid, charge_key) WHERE charge_key IS NOT NULL DO NOTHING
        RETURNING l.uuid, l.rental_record_uuid, l.amount_in_pennies, l.charge_key
      $function$
;

-- Keeps each rental's balance, oldest open charge and next due date from the entries a statement adds: locks the
-- statement's rentals in rental order, then updates each once. The foreign key rental_ledger_entries_rental_record_uuid_fkey
-- (ON DELETE CASCADE, not deferrable) refuses an entry naming no rental before this runs.
CREATE OR REPLACE FUNCTION public.rental_ledger_balance()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  BEGIN
    PERFORM FROM rental_records r WHERE r.uuid IN (SELECT a.rental_record_uuid FROM added a) ORDER BY r.uuid FOR NO KEY UPDATE;
    UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + m.amount,
           oldest_open_due_on = CASE
             WHEN m.charges_only AND (r.balance_in_pennies = 0 OR (r.balance_in_pennies > 0 AND r.oldest_open_due_on IS NOT NULL))
                  AND coalesce((SELECT e.due_on < m.earliest_due FROM rental_ledger_entries e
                                 WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL
                                 ORDER BY e.due_on DESC, e.seq DESC OFFSET m.entries LIMIT 1), true)
               THEN CASE WHEN r.balance_in_pennies > 0 THEN r.oldest_open_due_on ELSE m.earliest_due END
             ELSE (
  WITH RECURSIVE walk (due_on, seq, open_from_here) AS (
    (
  SELECT e.due_on, e.seq, n.net
    FROM rental_ledger_entries e
   CROSS JOIN LATERAL (SELECT e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net) n
   WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL AND n.net > 0 AND (r.balance_in_pennies + m.amount) > 0
   ORDER BY e.due_on DESC, e.seq DESC LIMIT 1)
    UNION ALL
    (SELECT c.due_on, c.seq, w.open_from_here + c.net
       FROM walk w CROSS JOIN LATERAL (
  SELECT e.due_on, e.seq, n.net
    FROM rental_ledger_entries e
   CROSS JOIN LATERAL (SELECT e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net) n
   WHERE e.rental_record_uuid = m.uuid AND e.due_on IS NOT NULL AND n.net > 0 AND (e.due_on, e.seq) < (w.due_on, w.seq)
   ORDER BY e.due_on DESC, e.seq DESC LIMIT 1) c
      WHERE w.open_from_here < (r.balance_in_pennies + m.amount)))
  SELECT walk.due_on FROM walk WHERE walk.open_from_here >= (r.balance_in_pennies + m.amount))
           END,
           next_due_date = greatest(r.next_due_date, m.charged_through), updated_at = now()
      FROM (SELECT a.rental_record_uuid AS uuid, sum(a.amount_in_pennies) AS amount,
                   max(a.period_to) FILTER (WHERE a.kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM')) AS charged_through,
                   bool_and(a.due_on IS NOT NULL) AS charges_only, min(a.due_on) AS earliest_due, count(*) AS entries
              FROM added a GROUP BY 1) m
     WHERE r.uuid = m.uuid;
    RETURN NULL;
  END $function$
;

CREATE TRIGGER rental_ledger_balance AFTER INSERT ON rental_ledger_entries REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION rental_ledger_balance();

-- Entries are never updated or deleted, but with their rental (the key's cascade).
CREATE OR REPLACE FUNCTION public.rental_ledger_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM rental_records WHERE uuid = OLD.rental_record_uuid) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'rental_ledger_entries is append-only: post a correcting entry instead of %', TG_OP USING ERRCODE = 'restrict_violation';
      END $function$
;

CREATE TRIGGER rental_ledger_append_only BEFORE DELETE OR UPDATE ON rental_ledger_entries FOR EACH ROW EXECUTE FUNCTION rental_ledger_append_only();

-- Only the ledger's trigger moves a balance or the oldest open charge; a rental starts at zero.
CREATE OR REPLACE FUNCTION public.rental_balance_kept_by_ledger()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        RAISE EXCEPTION 'rental_records.balance_in_pennies is the sum of the rental''s ledger entries: post an entry (@storage/rental-ledger)'
          USING ERRCODE = 'restrict_violation';
      END $function$
;

CREATE TRIGGER rental_balance_starts_at_zero BEFORE INSERT ON rental_records FOR EACH ROW WHEN (new.balance_in_pennies <> 0 OR new.oldest_open_due_on IS NOT NULL) EXECUTE FUNCTION rental_balance_kept_by_ledger();

CREATE TRIGGER rental_balance_kept_by_ledger BEFORE UPDATE OF balance_in_pennies, oldest_open_due_on ON rental_records FOR EACH ROW WHEN ((old.balance_in_pennies IS DISTINCT FROM new.balance_in_pennies OR old.oldest_open_due_on IS DISTINCT FROM new.oldest_open_due_on) AND pg_trigger_depth() = 0) EXECUTE FUNCTION rental_balance_kept_by_ledger();

-- What a move-in is due: the rental's charges posted so far.
CREATE OR REPLACE FUNCTION public.rental_ledger_move_in_due(rental uuid)
 RETURNS integer
 LANGUAGE sql
 STABLE
AS $function$
        SELECT coalesce(sum(e.amount_in_pennies), 0)::integer
          FROM rental_ledger_entries e JOIN rental_records r ON r.uuid = e.rental_record_uuid
          LEFT JOIN rental_ledger_entries charge ON charge.uuid = e.applies_to
         WHERE e.rental_record_uuid = rental AND coalesce(e.period_from, charge.period_from) = r.start_date
      $function$
;
