import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The trigger bodies of UnitGroupOccupancy over a table name: the current one writes the totals table, `down`
 * restores them over unit_group_occupancy.
 */
const addFunction = (table: string): string => `
  CREATE OR REPLACE FUNCTION "unit_group_occupancy_add"(groups uuid[], units bigint[], vacant_units bigint[], active_rentals bigint[], active_rent bigint[])
  RETURNS void LANGUAGE sql AS $$
    INSERT INTO ${table} AS o (unit_group_uuid, units, vacant_units, active_rentals, active_rent_in_pennies)
    SELECT c.unit_group_uuid, sum(c.units), sum(c.vacant_units), sum(c.active_rentals), sum(c.active_rent)
      FROM unnest(groups, units, vacant_units, active_rentals, active_rent) AS c(unit_group_uuid, units, vacant_units, active_rentals, active_rent)
     GROUP BY c.unit_group_uuid
     ORDER BY c.unit_group_uuid
    ON CONFLICT (unit_group_uuid) DO UPDATE SET
      units = o.units + EXCLUDED.units, vacant_units = o.vacant_units + EXCLUDED.vacant_units,
      active_rentals = o.active_rentals + EXCLUDED.active_rentals,
      active_rent_in_pennies = o.active_rent_in_pennies + EXCLUDED.active_rent_in_pennies
  $$`;

const rentalsFunction = (rentOnly: string): string => `
  CREATE OR REPLACE FUNCTION "unit_group_occupancy_rentals"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${rentOnly}
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
  END $$`;

/**
 * A rent change no longer queues on its unit group's occupancy row. Rent changes of one group used to take
 * turns on that row (the trigger adds the difference to the group's rent sum and holds the row's lock until
 * commit), so rent changes through the api ran one group at a time behind each other's commits.
 *
 * The figures are now unit_group_occupancy_totals plus unit_group_rent_changes, rent differences not yet
 * added to the totals; the view unit_group_occupancy (what readers read, under the old name and columns)
 * adds them up. A rent change (an active rental's rent, neither its status nor its group) takes the totals
 * row only if it is free (SKIP LOCKED) and then also adds the pending differences of its group into it;
 * otherwise it appends its difference and does not wait. Lettings, move-outs, transfers and statements of
 * many rows update the totals as before. Only a holder of the totals row deletes pending differences, and
 * in the transaction that adds them, so every snapshot sees each difference exactly once.
 */
export class UnitGroupRentChanges1795330000600 implements MigrationInterface {
  name = 'UnitGroupRentChanges1795330000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "unit_group_occupancy" RENAME TO "unit_group_occupancy_totals"`);
    await queryRunner.query(`
      CREATE TABLE "unit_group_rent_changes" (
        "unit_group_uuid" uuid NOT NULL,
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "rent_in_pennies" bigint NOT NULL,
        PRIMARY KEY ("unit_group_uuid", "id")
      )`);
    await queryRunner.query(addFunction('unit_group_occupancy_totals'));
    await queryRunner.query(`
      CREATE FUNCTION "unit_group_occupancy_rent_change"(group_uuid uuid, rent_change bigint) RETURNS void LANGUAGE plpgsql AS $$
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
      END $$`);
    await queryRunner.query(
      rentalsFunction(`
    IF TG_LEVEL = 'ROW' AND OLD.status IS NOT DISTINCT FROM NEW.status AND OLD.unit_group_uuid IS NOT DISTINCT FROM NEW.unit_group_uuid THEN
      IF NEW.status = 'ACTIVE' THEN
        PERFORM unit_group_occupancy_rent_change(NEW.unit_group_uuid, NEW.rent_in_pennies - OLD.rent_in_pennies);
      END IF;
      RETURN NULL;
    END IF;`),
    );
    await queryRunner.query(`
      CREATE VIEW "unit_group_occupancy" AS
      SELECT t.unit_group_uuid, t.units, t.vacant_units, t.active_rentals,
             t.active_rent_in_pennies
               + coalesce((SELECT sum(c.rent_in_pennies) FROM unit_group_rent_changes c WHERE c.unit_group_uuid = t.unit_group_uuid), 0)::bigint
               AS active_rent_in_pennies
        FROM unit_group_occupancy_totals t`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "unit_group_occupancy"`);
    await queryRunner.query(rentalsFunction(''));
    await queryRunner.query(`DROP FUNCTION "unit_group_occupancy_rent_change"(uuid, bigint)`);
    await queryRunner.query(`
      UPDATE unit_group_occupancy_totals t SET active_rent_in_pennies = t.active_rent_in_pennies + c.rent
        FROM (SELECT unit_group_uuid, sum(rent_in_pennies) AS rent FROM unit_group_rent_changes GROUP BY 1) c
       WHERE c.unit_group_uuid = t.unit_group_uuid`);
    await queryRunner.query(`DROP TABLE "unit_group_rent_changes"`);
    await queryRunner.query(`ALTER TABLE "unit_group_occupancy_totals" RENAME TO "unit_group_occupancy"`);
    await queryRunner.query(addFunction('unit_group_occupancy'));
  }
}
