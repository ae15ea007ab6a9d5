-- The current definition of every function of the webhook dispatcher, as PostgreSQL prints it (pg_get_functiondef).
-- The migrations in packages/persistence are their history; the test functions-match-homes there checks that the
-- migrated schema has exactly these. Change one with a new migration and here.

CREATE OR REPLACE FUNCTION public.webhook_endpoint_room(endpoint uuid, max_in_flight integer, now timestamp with time zone, settled text[])
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM pg_advisory_xact_lock(7302, hashtext(endpoint::text));
        RETURN greatest(max_in_flight - (
          SELECT count(*) FROM webhook_messages m
          WHERE m.endpoint_id = endpoint AND m.status = 'pending' AND m.claimed AND m.next_attempt_at > now AND m.id <> ALL(settled)), 0);
      END $function$
;
