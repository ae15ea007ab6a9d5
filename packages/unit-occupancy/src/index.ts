// The only entry of @storage/unit-occupancy, used by the api (lettings, move-out, transfer, operation 10) and by
// @storage/delinquency (auction completion, which ends the rental as the api's move-out does), and the owner of
// units and unit groups (onboarding writes them through saveUnit and saveUnitGroup).
export { endRental, type RentalEnd } from './rental-end';
export { repriceUnitGroup, type BaseRates, type RepriceOptions, type UnitGroupRates } from './unit-group-rates';
export { setUnitStatus, type OccupancyStatus } from './unit-status';
export { saveUnit, saveUnitGroup, UnitConflict, type SaveOutcome, type UnitGroupValues } from './unit-catalog';
