// The only entry of @storage/rentals: the one writer of a rental's own rows (rental_records but its money columns,
// rental_services, coverage_enrollments, gate_codes, vehicles, rental_rent_changes). Every function runs in the
// caller's transaction, which holds the rental's lock.
// The rental aggregate: the one lock of a rental, its event times and its version.
export { eventTimes, withEventTimeStamp } from './aggregate/event-time';
export { lockRental, lockTenant, LOCK_TENANTS_OF, type RentalRef } from './aggregate/lock';
export { type RentalVersion } from './aggregate/version';
export { setAutopay } from './autopay';
export { importRentals, type ExistingCoverageEnrollment, type ExistingRental, type ExistingService, type ExistingVehicle } from './existing-rentals';
export { issueGateCode } from './gate-codes';
export { moveIn, type EnrolledCoverage, type MoveIn } from './move-in';
export { changeRents, type RentChange } from './rent-changes';
export { endRental, type RentalEnd } from './rental-end';
export { addService, endService, type NewService } from './services';
export { transfer, type Transfer } from './transfer';
export {
  enrollCoverageInBulk,
  importRentalsInBulk,
  issueGateCodesInBulk,
  recordVehiclesInBulk,
  type BulkCoverageEnrollment,
  type BulkGateCode,
  type BulkRental,
  type BulkVehicle,
} from './bulk-rentals';
export { forgetRentals } from './forget-rentals';
export { RENTAL_STATUSES, RentalRecord, RentalService, type RentalStatus } from './entities/rental-record.entity';
export { CoverageEnrollment } from './entities/coverage-enrollment.entity';
export { GateCode } from './entities/gate-code.entity';
export { Vehicle } from './entities/vehicle.entity';
