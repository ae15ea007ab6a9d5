-- The current definition of every function and trigger of @storage/unit-occupancy, as PostgreSQL prints it
-- (pg_get_functiondef, pg_get_triggerdef). The migrations in packages/persistence are their history; the test
-- functions-match-homes there checks that the migrated schema has exactly these. Change one with a new migration
-- and here.

-- Adds to a unit group's occupancy figures, creating its row.
CREATE OR REPLACE FUNCTION public.unit_group_occupancy_add(groups uuid[], units bigint[], vacant_units bigint[], active_rentals bigint[], active_rent bigint[])
 RETURNS void
 LANGUAGE sql
AS $function$
    INSERT INTO unit_group_occupancy_totals AS o (unit_group_uuid, units, vacant_units, active_rentals, active_rent_in_pennies)
    SELECT c.unit_group_uuid, sum(c.units), sum(c.vacant_units), sum(c.active_rentals), sum(c.active_rent)
      FROM unnest(groups, units, vacant_units, active_rentals, active_rent) AS c(unit_group_uuid, units, vacant_units, active_rentals, active_rent)
     GROUP BY c.unit_group_uuid
     ORDER BY c.unit_group_uuid
    ON CONFLICT (unit_group_uuid) DO UPDATE SET
      units = o.units + EXCLUDED.units, vacant_units = o.vacant_units + EXCLUDED.vacant_units,
      active_rentals = o.active_rentals + EXCLUDED.active_rentals,
      active_rent_in_pennies = o.active_rent_in_pennies + EXCLUDED.active_rent_in_pennies
  $function$
;

CREATE OR REPLACE FUNCTION public.unit_group_occupancy_units()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        IF TG_LEVEL = 'ROW' THEN
          PERFORM unit_group_occupancy_add(ARRAY[OLD.unit_group_uuid, NEW.unit_group_uuid], ARRAY[-1, 1]::bigint[],
            ARRAY[-(OLD.status = 'vacant')::int, (NEW.status = 'vacant')::int]::bigint[], ARRAY[0, 0]::bigint[], ARRAY[0, 0]::bigint[]);
        ELSIF TG_OP = 'INSERT' THEN
          PERFORM unit_group_occupancy_add(array_agg(g), array_agg(n), array_agg(v), array_agg(0::bigint), array_agg(0::bigint))
             FROM (SELECT unit_group_uuid, count(*), count(*) FILTER (WHERE status = 'vacant') FROM added GROUP BY 1) AS t(g, n, v);
        ELSE
          PERFORM unit_group_occupancy_add(array_agg(g), array_agg(-n), array_agg(-v), array_agg(0::bigint), array_agg(0::bigint))
             FROM (SELECT unit_group_uuid, count(*), count(*) FILTER (WHERE status = 'vacant') FROM removed GROUP BY 1) AS t(g, n, v);
        END IF;
        RETURN NULL;
      END $function$
;

CREATE TRIGGER units_occupancy_insert AFTER INSERT ON units REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION unit_group_occupancy_units();

CREATE TRIGGER units_occupancy_delete AFTER DELETE ON units REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION unit_group_occupancy_units();

CREATE TRIGGER units_occupancy_update AFTER UPDATE ON units FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status OR old.unit_group_uuid IS DISTINCT FROM new.unit_group_uuid) EXECUTE FUNCTION unit_group_occupancy_units();

CREATE OR REPLACE FUNCTION public.unit_group_occupancy_rentals()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  BEGIN
    
    IF TG_LEVEL = 'ROW' AND OLD.status IS NOT DISTINCT FROM NEW.status AND OLD.unit_group_uuid IS NOT DISTINCT FROM NEW.unit_group_uuid THEN
      IF NEW.status = 'ACTIVE' THEN
        PERFORM unit_group_occupancy_rent_change(NEW.unit_group_uuid, NEW.rent_in_pennies - OLD.rent_in_pennies);
      END IF;
      RETURN NULL;
    END IF;
    IF TG_LEVEL = 'ROW' THEN
      PERFORM unit_group_occupancy_add(ARRAY[OLD.unit_group_uuid, NEW.unit_group_uuid], ARRAY[0, 0]::bigint[], ARRAY[0, 0]::bigint[],
        ARRAY[-(OLD.status = 'ACTIVE')::int, (NEW.status = 'ACTIVE')::int]::bigint[],
        ARRAY[CASE WHEN OLD.status = 'ACTIVE' THEN -OLD.rent_in_pennies ELSE 0 END, CASE WHEN NEW.status = 'ACTIVE' THEN NEW.rent_in_pennies ELSE 0 END]::bigint[]);
    ELSIF TG_OP = 'INSERT' THEN
      PERFORM unit_group_occupancy_add(array_agg(g), array_agg(0::bigint), array_agg(0::bigint), array_agg(n), array_agg(rent))
         FROM (SELECT unit_group_uuid, count(*), sum(rent_in_pennies) FROM added WHERE status = 'ACTIVE' GROUP BY 1) AS t(g, n, rent);
    ELSE
      PERFORM unit_group_occupancy_add(array_agg(g), array_agg(0::bigint), array_agg(0::bigint), array_agg(-n), array_agg(-rent))
         FROM (SELECT unit_group_uuid, count(*), sum(rent_in_pennies) FROM removed WHERE status = 'ACTIVE' GROUP BY 1) AS t(g, n, rent);
    END IF;
    RETURN NULL;
  END $function$
;

CREATE TRIGGER rental_records_occupancy_insert AFTER INSERT ON rental_records REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION unit_group_occupancy_rentals();

CREATE TRIGGER rental_records_occupancy_delete AFTER DELETE ON rental_records REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION unit_group_occupancy_rentals();

CREATE TRIGGER rental_records_occupancy_update AFTER UPDATE ON rental_records FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status OR old.rent_in_pennies IS DISTINCT FROM new.rent_in_pennies OR old.unit_group_uuid IS DISTINCT FROM new.unit_group_uuid) EXECUTE FUNCTION unit_group_occupancy_rentals();

CREATE OR REPLACE FUNCTION public.unit_group_occupancy_rent_change(group_uuid uuid, rent_change bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM FROM unit_group_occupancy_totals WHERE unit_group_uuid = group_uuid FOR NO KEY UPDATE SKIP LOCKED;
        IF FOUND THEN
          WITH added AS (DELETE FROM unit_group_rent_changes WHERE unit_group_uuid = group_uuid RETURNING rent_in_pennies)
          UPDATE unit_group_occupancy_totals
             SET active_rent_in_pennies = active_rent_in_pennies + rent_change + (SELECT coalesce(sum(rent_in_pennies), 0) FROM added)
           WHERE unit_group_uuid = group_uuid;
        ELSE
          INSERT INTO unit_group_rent_changes (unit_group_uuid, rent_in_pennies) VALUES (group_uuid, rent_change);
        END IF;
      END $function$
;
