// The only entry of @storage/unit-occupancy, used by the api (lettings, move-out, transfer, operation 10) and by
// @storage/delinquency (auction completion).
export { repriceUnitGroup, type BaseRates, type RepriceOptions, type UnitGroupRates } from './unit-group-rates';
export { setUnitStatus, type OccupancyStatus } from './unit-status';
