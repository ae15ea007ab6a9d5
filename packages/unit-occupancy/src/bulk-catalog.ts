import { query, sql, type Queryable, type Sql } from '@storage/persistence';

/*
 * Loading a large inventory in one statement per table (the scale seed): the caller's query yields the rows, set-based
 * (generate_series), and this package writes them, so the insert and its rules stay the owner's. The query's columns
 * are named as the table's, which a missing or misspelt one fails on.
 */

/** A unit group as the load's query yields it: a new group starts at its base rates (the caller reprices it). */
export interface BulkUnitGroup {
  uuid: string;
  facility_uuid: string;
  size_and_type_group_uuid: string;
  description: string;
  tier_level: number;
  rate_plan_uuid: string;
  base_street_rate_in_pennies: number;
  base_web_rate_in_pennies: number;
}

/**
 * A unit as the load's query yields it, as it stands: an `occupied` one is let by a rental the caller brings in, in
 * the same transaction, by `@storage/rentals`' `importRentalsInBulk` (the occupancy triggers count each as written).
 */
export interface BulkUnit {
  uuid: string;
  facility_uuid: string;
  unit_group_uuid: string;
  name: string;
  floor: string;
  status: 'vacant' | 'occupied';
}

/** Writes the unit groups `groups` yields, at their base rates. */
export async function createUnitGroupsInBulk<Values extends readonly unknown[]>(
  db: Queryable,
  groups: Sql<BulkUnitGroup, Values>,
  values: Values,
): Promise<void> {
  await query(
    db,
    sql<never, Values>(`INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, tier_level, rate_plan_uuid,
                              base_street_rate_in_pennies, base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
     SELECT g.uuid, g.facility_uuid, g.size_and_type_group_uuid, g.description, g.tier_level, g.rate_plan_uuid,
            g.base_street_rate_in_pennies, g.base_web_rate_in_pennies, g.base_street_rate_in_pennies, g.base_web_rate_in_pennies
       FROM (${groups.text}) AS g`),
    values,
  );
}

/** Writes the units `units` yields. */
export async function createUnitsInBulk<Values extends readonly unknown[]>(db: Queryable, units: Sql<BulkUnit, Values>, values: Values): Promise<void> {
  await query(
    db,
    sql<never, Values>(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, floor, status)
     SELECT u.uuid, u.facility_uuid, u.unit_group_uuid, u.name, u.floor, u.status::unit_status FROM (${units.text}) AS u`),
    values,
  );
}
