// The only entry of @storage/unit-occupancy, used by the api (lettings, move-out, transfer, operation 10) and by
// @storage/delinquency (auction completion, which ends the rental as the api's move-out does).
export { endRental, type RentalEnd } from './rental-end';
export { repriceUnitGroup, type BaseRates, type RepriceOptions, type UnitGroupRates } from './unit-group-rates';
export { setUnitStatus, type OccupancyStatus } from './unit-status';
