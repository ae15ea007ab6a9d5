import { query, sql, upsertOwned, type OwnedUpsert, type Queryable, type UpsertOutcome } from '@storage/persistence';
import type { EntityManager } from 'typeorm';
import { repriceUnitGroup } from './unit-group-rates';

/** A write of the facility's units refused by their rules (a rented unit moved, a name used twice, a uuid taken). */
export class UnitConflict extends Error {
  override readonly name = 'UnitConflict';
}

export interface UnitGroupValues {
  sizeAndTypeGroupUuid: string;
  description: string;
  tierLevel: number;
  ratePlanUuid: string;
  baseStreetRateInPennies: number;
  baseWebRateInPennies: number;
  canShowUnitGroupTenantPortal: boolean;
}

export type SaveOutcome = Exclude<UpsertOutcome, 'taken'>;

type UnitGroupUpsertValues = [
  uuid: string,
  facilityUuid: string,
  sizeAndTypeGroupUuid: string,
  description: string,
  tierLevel: number,
  ratePlanUuid: string,
  baseStreetRateInPennies: number,
  baseWebRateInPennies: number,
  canShowUnitGroupTenantPortal: boolean,
];

/** A new group's current rates are its base rates; afterwards they are repricing's, never this write's. */
const UNIT_GROUP: OwnedUpsert<UnitGroupUpsertValues> = {
  write: sql(`INSERT INTO unit_groups AS t (uuid, facility_uuid, size_and_type_group_uuid, description, tier_level, rate_plan_uuid,
       base_street_rate_in_pennies, base_web_rate_in_pennies, can_show_unit_group_tenant_portal, current_street_rate_in_pennies, current_web_rate_in_pennies)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $7, $8)
     ON CONFLICT (uuid) DO UPDATE SET size_and_type_group_uuid = EXCLUDED.size_and_type_group_uuid, description = EXCLUDED.description,
       tier_level = EXCLUDED.tier_level, rate_plan_uuid = EXCLUDED.rate_plan_uuid, base_street_rate_in_pennies = EXCLUDED.base_street_rate_in_pennies,
       base_web_rate_in_pennies = EXCLUDED.base_web_rate_in_pennies, can_show_unit_group_tenant_portal = EXCLUDED.can_show_unit_group_tenant_portal
      WHERE t.facility_uuid = EXCLUDED.facility_uuid
        AND ROW(t.size_and_type_group_uuid, t.description, t.tier_level, t.rate_plan_uuid, t.base_street_rate_in_pennies, t.base_web_rate_in_pennies,
          t.can_show_unit_group_tenant_portal)
        IS DISTINCT FROM ROW(EXCLUDED.size_and_type_group_uuid, EXCLUDED.description, EXCLUDED.tier_level, EXCLUDED.rate_plan_uuid,
          EXCLUDED.base_street_rate_in_pennies, EXCLUDED.base_web_rate_in_pennies, EXCLUDED.can_show_unit_group_tenant_portal)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT facility_uuid = $2 AS owned FROM unit_groups WHERE uuid = $1'),
};

/**
 * Creates a facility's unit group or brings it to `values`; a new group starts at its base rates. Its current rates
 * follow occupancy and its rate plan: the caller reprices it (`repriceUnitGroup`) once its amenities are written.
 */
export async function saveUnitGroup(db: EntityManager, facilityUuid: string, uuid: string, values: UnitGroupValues): Promise<SaveOutcome> {
  const outcome = await upsertOwned(db, UNIT_GROUP, [
    uuid,
    facilityUuid,
    values.sizeAndTypeGroupUuid,
    values.description,
    values.tierLevel,
    values.ratePlanUuid,
    values.baseStreetRateInPennies,
    values.baseWebRateInPennies,
    values.canShowUnitGroupTenantPortal,
  ]);
  if (outcome === 'taken') throw new UnitConflict(`Unit group ${uuid} is already used elsewhere; choose another uuid.`);
  return outcome;
}

const UNIT_FOR_UPDATE = sql<{ unitGroupUuid: string; status: string }, [string, string]>(
  'SELECT unit_group_uuid AS "unitGroupUuid", status FROM units WHERE uuid = $1 AND facility_uuid = $2 FOR UPDATE',
);
const NAMESAKE = sql<{ uuid: string }, [string, string, string]>('SELECT uuid FROM units WHERE facility_uuid = $1 AND name = $2 AND uuid <> $3 LIMIT 1');
const UNIT: OwnedUpsert<[uuid: string, facilityUuid: string, unitGroupUuid: string, name: string, floor: string]> = {
  write: sql(`INSERT INTO units AS t (uuid, facility_uuid, unit_group_uuid, name, floor) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (uuid) DO UPDATE SET unit_group_uuid = EXCLUDED.unit_group_uuid, name = EXCLUDED.name, floor = EXCLUDED.floor
      WHERE t.facility_uuid = EXCLUDED.facility_uuid AND ROW(t.unit_group_uuid, t.name, t.floor) IS DISTINCT FROM ROW(EXCLUDED.unit_group_uuid, EXCLUDED.name, EXCLUDED.floor)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT facility_uuid = $2 AS owned FROM units WHERE uuid = $1'),
};
const LOCK_FACILITY_UNITS = sql<unknown, [number, string]>('SELECT pg_advisory_xact_lock($1, hashtext($2))');

/**
 * Creates a facility's unit (vacant: only rentals let it) or brings it to the values given. A unit may move to
 * another group of its facility while vacant; its name is the facility's once. The occupancy triggers count it,
 * and the groups it left and joined are repriced.
 */
export async function saveUnit(
  db: EntityManager,
  facilityUuid: string,
  uuid: string,
  unit: { unitGroupUuid: string; name: string; floor: string },
): Promise<SaveOutcome> {
  await lockFacilityUnits(db, facilityUuid);
  const group = unit.unitGroupUuid.toLowerCase();
  const [before] = await query(db, UNIT_FOR_UPDATE, [uuid, facilityUuid]);
  if (before !== undefined && before.status !== 'vacant' && before.unitGroupUuid !== group) {
    throw new UnitConflict(`Unit ${uuid} is rented: it stays in its unit group until it is vacant.`);
  }
  const [namesake] = await query(db, NAMESAKE, [facilityUuid, unit.name, uuid]);
  if (namesake !== undefined) throw new UnitConflict(`Unit ${namesake.uuid} of this facility is already named "${unit.name}".`);
  const outcome = await upsertOwned(db, UNIT, [uuid, facilityUuid, group, unit.name, unit.floor]);
  if (outcome === 'taken') throw new UnitConflict(`Unit ${uuid} is already used elsewhere; choose another uuid.`);
  // The groups whose unit counts changed, in uuid order (the order occupancy locks them in).
  const changed = before === undefined ? [group] : before.unitGroupUuid === group ? [] : [before.unitGroupUuid, group];
  for (const unitGroupUuid of changed.sort()) await repriceUnitGroup(db, unitGroupUuid);
  return outcome;
}

/** Namespace of the unit names' advisory locks (the scheduler's facility runs use 7302, coverages 7304). */
const UNIT_NAMES_LOCK = 7303;

/** A unit name is its facility's once, checked by reading the others: the writes of one facility's units take turns. */
async function lockFacilityUnits(db: Queryable, facilityUuid: string): Promise<void> {
  await query(db, LOCK_FACILITY_UNITS, [UNIT_NAMES_LOCK, facilityUuid]);
}
