// The only entry of @storage/unit-occupancy, used by @storage/rentals (lettings, move-out, transfer) and the api
// (operation 10), and the owner of units and unit groups (onboarding writes them through saveUnit and saveUnitGroup).
export { repriceUnitGroup, type BaseRates, type RepriceOptions, type UnitGroupRates } from './unit-group-rates';
export { setUnitStatus } from './unit-status';
export { saveUnit, saveUnitGroup, UnitConflict, type SaveOutcome, type UnitGroupValues } from './unit-catalog';
export { createUnitGroupsInBulk, createUnitsInBulk, type BulkUnit, type BulkUnitGroup } from './bulk-catalog';
export { forgetFacilityUnits } from './forget-units';
export { Unit, UNIT_STATUSES, type UnitStatus } from './entities/unit.entity';
export { UnitGroup } from './entities/unit-group.entity';
