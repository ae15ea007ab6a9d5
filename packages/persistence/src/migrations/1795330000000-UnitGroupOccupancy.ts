import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each unit group's occupancy figures (operation 7: units, vacant units, the average rent of its active
 * rentals), kept by triggers in the transaction that changes a unit or a rental, so a read is one row
 * instead of counting units and rentals. Inserts and deletes are counted per statement (a seed of a
 * million rentals is one aggregate, not a million updates); updates per row, and only when the status,
 * rent or unit group changes, so the many updates of balances cost nothing here. Rows are upserted in
 * unit group order, so two transactions touching the same groups lock them in the same order.
 *
 * It replaces the covering index of UnitGroupStatsIndex, which only served those counts.
 */
export class UnitGroupOccupancy1795330000000 implements MigrationInterface {
  name = 'UnitGroupOccupancy1795330000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "unit_group_occupancy" (
        "unit_group_uuid" uuid PRIMARY KEY,
        "units" integer NOT NULL DEFAULT 0,
        "vacant_units" integer NOT NULL DEFAULT 0,
        "active_rentals" integer NOT NULL DEFAULT 0,
        "active_rent_in_pennies" bigint NOT NULL DEFAULT 0
      )`);
    // Adds the changes of one statement, summed per unit group (the arrays are parallel: one group each).
    await queryRunner.query(`
      CREATE FUNCTION "unit_group_occupancy_add"(groups uuid[], units bigint[], vacant_units bigint[], active_rentals bigint[], active_rent bigint[])
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO unit_group_occupancy AS o (unit_group_uuid, units, vacant_units, active_rentals, active_rent_in_pennies)
        SELECT c.unit_group_uuid, sum(c.units), sum(c.vacant_units), sum(c.active_rentals), sum(c.active_rent)
          FROM unnest(groups, units, vacant_units, active_rentals, active_rent) AS c(unit_group_uuid, units, vacant_units, active_rentals, active_rent)
         GROUP BY c.unit_group_uuid
         ORDER BY c.unit_group_uuid
        ON CONFLICT (unit_group_uuid) DO UPDATE SET
          units = o.units + EXCLUDED.units, vacant_units = o.vacant_units + EXCLUDED.vacant_units,
          active_rentals = o.active_rentals + EXCLUDED.active_rentals,
          active_rent_in_pennies = o.active_rent_in_pennies + EXCLUDED.active_rent_in_pennies
      $$`);

    // Units: sign 1 for the rows a statement added, -1 for those it removed; an update moves one unit.
    await queryRunner.query(`
      CREATE FUNCTION "unit_group_occupancy_units"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      END $$`);
    // Rentals: only active ones count; an update takes the old row out and puts the new one in.
    await queryRunner.query(`
      CREATE FUNCTION "unit_group_occupancy_rentals"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
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
      END $$`);

    for (const [table, fn, columns] of [
      ['units', 'unit_group_occupancy_units', 'OLD.status IS DISTINCT FROM NEW.status OR OLD.unit_group_uuid IS DISTINCT FROM NEW.unit_group_uuid'],
      [
        'rental_records',
        'unit_group_occupancy_rentals',
        'OLD.status IS DISTINCT FROM NEW.status OR OLD.rent_in_pennies IS DISTINCT FROM NEW.rent_in_pennies OR OLD.unit_group_uuid IS DISTINCT FROM NEW.unit_group_uuid',
      ],
    ] as const) {
      await queryRunner.query(
        `CREATE TRIGGER "${table}_occupancy_insert" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "${table}_occupancy_delete" AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      );
      await queryRunner.query(`CREATE TRIGGER "${table}_occupancy_update" AFTER UPDATE ON "${table}" FOR EACH ROW WHEN (${columns}) EXECUTE FUNCTION ${fn}()`);
    }

    // What exists already, counted once.
    await queryRunner.query(`
      INSERT INTO unit_group_occupancy (unit_group_uuid, units, vacant_units, active_rentals, active_rent_in_pennies)
      SELECT g.uuid,
             (SELECT count(*) FROM units u WHERE u.unit_group_uuid = g.uuid),
             (SELECT count(*) FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'vacant'),
             (SELECT count(*) FROM rental_records r WHERE r.unit_group_uuid = g.uuid AND r.status = 'ACTIVE'),
             (SELECT coalesce(sum(r.rent_in_pennies), 0) FROM rental_records r WHERE r.unit_group_uuid = g.uuid AND r.status = 'ACTIVE')
        FROM unit_groups g`);
    await queryRunner.query(`DROP INDEX "public"."IDX_rental_records_active_rent_by_group"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_rental_records_active_rent_by_group" ON "rental_records" ("unit_group_uuid") INCLUDE ("rent_in_pennies") WHERE "status" = 'ACTIVE'`,
    );
    for (const table of ['units', 'rental_records']) {
      for (const event of ['insert', 'delete', 'update']) await queryRunner.query(`DROP TRIGGER "${table}_occupancy_${event}" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION "unit_group_occupancy_rentals"()`);
    await queryRunner.query(`DROP FUNCTION "unit_group_occupancy_units"()`);
    await queryRunner.query(`DROP FUNCTION "unit_group_occupancy_add"(uuid[], bigint[], bigint[], bigint[], bigint[])`);
    await queryRunner.query(`DROP TABLE "unit_group_occupancy"`);
  }
}
