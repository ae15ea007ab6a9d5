import { query, sql, upsertOwnedRow, type Queryable, type UpsertOutcome } from '@storage/persistence';
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

/**
 * Creates a facility's unit group or brings it to `values`; a new group starts at its base rates. Its current rates
 * follow occupancy and its rate plan: the caller reprices it (`repriceUnitGroup`) once its amenities are written.
 */
export async function saveUnitGroup(db: EntityManager, facilityUuid: string, uuid: string, values: UnitGroupValues): Promise<SaveOutcome> {
  const outcome = await upsertOwnedRow(db, {
    table: 'unit_groups',
    uuid,
    owner: ['facilityUuid', facilityUuid],
    values: { ...values },
    insertOnly: { currentStreetRateInPennies: values.baseStreetRateInPennies, currentWebRateInPennies: values.baseWebRateInPennies },
  });
  if (outcome === 'taken') throw new UnitConflict(`Unit group ${uuid} is already used elsewhere; choose another uuid.`);
  return outcome;
}

const UNIT_FOR_UPDATE = sql<{ unitGroupUuid: string; status: string }, [string, string]>(
  'SELECT unit_group_uuid AS "unitGroupUuid", status FROM units WHERE uuid = $1 AND facility_uuid = $2 FOR UPDATE',
);
const NAMESAKE = sql<{ uuid: string }, [string, string, string]>('SELECT uuid FROM units WHERE facility_uuid = $1 AND name = $2 AND uuid <> $3 LIMIT 1');
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
  const outcome = await upsertOwnedRow(db, {
    table: 'units',
    uuid,
    owner: ['facilityUuid', facilityUuid],
    values: { unitGroupUuid: group, name: unit.name, floor: unit.floor },
  });
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
