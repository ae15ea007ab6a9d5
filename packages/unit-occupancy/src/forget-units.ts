import { query, sql, type Queryable } from '@storage/persistence';

const DELETE_UNITS = sql<never, [facilityUuids: string[]]>('DELETE FROM units WHERE facility_uuid = ANY($1::uuid[])');
const DELETE_UNIT_GROUPS = sql<{ uuid: string }, [facilityUuids: string[]]>('DELETE FROM unit_groups WHERE facility_uuid = ANY($1::uuid[]) RETURNING uuid');
const DELETE_OCCUPANCY = sql<
  never,
  [unitGroupUuids: string[]]
>(`WITH totals AS (DELETE FROM unit_group_occupancy_totals WHERE unit_group_uuid = ANY($1::uuid[]))
  DELETE FROM unit_group_rent_changes WHERE unit_group_uuid = ANY($1::uuid[])`);

/**
 * Deletes the facilities' units and unit groups with their occupancy figures (rows without a foreign key, which the
 * triggers upsert): for a caller removing the facilities (the demo seed replacing its portfolio), after their rentals,
 * whose deletes the triggers count first. The groups' amenities go by their foreign key.
 */
export async function forgetFacilityUnits(db: Queryable, facilityUuids: readonly string[]): Promise<void> {
  await query(db, DELETE_UNITS, [[...facilityUuids]]);
  const groups = await query(db, DELETE_UNIT_GROUPS, [[...facilityUuids]]);
  await query(db, DELETE_OCCUPANCY, [groups.map((g) => g.uuid)]);
}
