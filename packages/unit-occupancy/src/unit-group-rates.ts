import type { EntityManager } from 'typeorm';
import { currentRates, occupancyPercent, type OccupancyBand } from '@storage/domain';
import { query, sql } from '@storage/persistence';

export interface BaseRates {
  baseStreetRateInPennies: number;
  baseWebRateInPennies: number;
}

export interface UnitGroupRates extends BaseRates {
  unitGroupUuid: string;
  currentStreetRateInPennies: number;
  currentWebRateInPennies: number;
  occupancyPercent: number;
}

export interface RepriceOptions {
  /** New base rates; a rate left out keeps its stored value. */
  base?: Partial<BaseRates>;
  /** Only a unit group of this facility and portfolio is repriced (an operator's request). */
  within?: { facilityUuid: string; portfolioUuid: string };
}

interface GroupPricing {
  baseStreet: number;
  baseWeb: number;
  bands: OccupancyBand[] | null;
  numUnits: number;
  numOccupied: number;
}

/*
 * The unit counts are unit_group_occupancy's, kept by triggers in the transaction that changes a unit (migration
 * UnitGroupOccupancy), so a unit just let or freed is counted. The group row is locked so concurrent lettings and
 * rate changes are applied one after the other.
 */
const GROUP_PRICING = sql<GroupPricing, [string, string | null, string | null]>(`
SELECT g.base_street_rate_in_pennies AS "baseStreet", g.base_web_rate_in_pennies AS "baseWeb", rp.occupancy_bands AS bands,
       coalesce(o.units, 0) AS "numUnits", coalesce(o.units - o.vacant_units, 0) AS "numOccupied"
  FROM unit_groups g JOIN facilities f ON f.uuid = g.facility_uuid LEFT JOIN rate_plans rp ON rp.uuid = g.rate_plan_uuid
       LEFT JOIN unit_group_occupancy o ON o.unit_group_uuid = g.uuid
 WHERE g.uuid = $1 AND ($2::uuid IS NULL OR (g.facility_uuid = $2 AND f.portfolio_uuid = $3))
   FOR NO KEY UPDATE OF g`);

const SET_RATES = sql<never, [string, number, number, number, number]>(
  `UPDATE unit_groups SET base_street_rate_in_pennies = $2, base_web_rate_in_pennies = $3,
          current_street_rate_in_pennies = $4, current_web_rate_in_pennies = $5 WHERE uuid = $1`,
);

/**
 * Stores a unit group's current rates: base × (1 + adjustment of the rate plan band holding its occupancy),
 * ARCHITECTURE.md "Rate plans". Call it in the transaction that changes occupancy or base rates. Null when
 * there is no such unit group.
 */
export async function repriceUnitGroup(db: EntityManager, unitGroupUuid: string, options: RepriceOptions = {}): Promise<UnitGroupRates | null> {
  const [group] = await query(db, GROUP_PRICING, [unitGroupUuid, options.within?.facilityUuid ?? null, options.within?.portfolioUuid ?? null]);
  if (group === undefined) return null;
  const base: BaseRates = {
    baseStreetRateInPennies: options.base?.baseStreetRateInPennies ?? group.baseStreet,
    baseWebRateInPennies: options.base?.baseWebRateInPennies ?? group.baseWeb,
  };
  const occupancy = occupancyPercent(group.numUnits, group.numOccupied);
  const current = currentRates({ ...base, occupancyPercent: occupancy, bands: group.bands ?? [] });
  await query(db, SET_RATES, [
    unitGroupUuid,
    base.baseStreetRateInPennies,
    base.baseWebRateInPennies,
    current.currentStreetRateInPennies,
    current.currentWebRateInPennies,
  ]);
  return { unitGroupUuid, ...base, ...current, occupancyPercent: occupancy };
}
