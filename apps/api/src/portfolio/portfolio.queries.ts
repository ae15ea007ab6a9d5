import { sql } from '@storage/persistence';

/**
 * Operation 7's query, JSON built by PostgreSQL. Shared with the benchmark's bare server (apps/api/bench),
 * which must run exactly the same SQL, as the same named prepared statement. $1 facility, $2 portfolio, $3 size-and-type group uuids.
 * One row when the facility is in the portfolio, none otherwise.
 *
 * The per-unit-group figures are one row of unit_group_occupancy each, kept by triggers as units and
 * rentals change (migration UnitGroupOccupancy), so no unit or rental is counted here.
 */
const SIZE_AND_TYPE_GROUPS_SQL = `
SELECT coalesce((
  SELECT json_agg(json_build_object(
    'sizeAndTypeUnitGroupUuid', s.uuid, 'length', s.length::float8, 'width', s.width::float8, 'height', s.height::float8,
    'area', trim_scale(s.width * s.length)::text || ' sq ft', 'unitType', ut.description, 'entityAttributeOrganizationUuid', ut.uuid,
    'unitGroups', coalesce((
      SELECT json_agg(json_build_object(
        'unitGroupUuid', g.uuid, 'description', g.description, 'tierLevel', g.tier_level,
        'currentStreetRateInPennies', g.current_street_rate_in_pennies, 'currentWebRateInPennies', g.current_web_rate_in_pennies,
        'numUnits', coalesce(o.units, 0), 'numVacantUnits', coalesce(o.vacant_units, 0),
        'averageCurrentRentInPennies', CASE WHEN o.active_rentals > 0 THEN (o.active_rent_in_pennies::numeric / o.active_rentals)::float8 ELSE 0 END,
        'ratePlanUuid', g.rate_plan_uuid,
        'amenities', coalesce((SELECT json_agg(json_build_object('amenityUuid', a.uuid, 'description', a.description,
                                                                 'isSmartAmenity', a.is_smart_amenity) ORDER BY a.description, a.uuid)
                               FROM unit_group_amenities uga JOIN amenities a ON a.uuid = uga.amenity_uuid
                               WHERE uga.unit_group_uuid = g.uuid), '[]'),
        'canShowUnitGroupTenantPortal', g.can_show_unit_group_tenant_portal
      ) ORDER BY g.tier_level, g.uuid)
      FROM unit_groups g LEFT JOIN unit_group_occupancy o ON o.unit_group_uuid = g.uuid
     WHERE g.size_and_type_group_uuid = s.uuid), '[]')
  ) ORDER BY s.width * s.length, s.uuid)
  FROM size_and_type_groups s JOIN unit_types ut ON ut.uuid = s.unit_type_uuid
  WHERE s.facility_uuid = f.uuid AND s.uuid = ANY($3::uuid[])), '[]')::text AS body
FROM facilities f WHERE f.uuid = $1 AND f.portfolio_uuid = $2`;

export const SIZE_AND_TYPE_GROUPS_STATEMENT = sql<{ body: string }, [string, string, string[]]>(SIZE_AND_TYPE_GROUPS_SQL, {
  prepared: 'api_op7_size_and_type_groups',
});
