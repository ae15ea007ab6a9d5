// The only entry of @storage/delinquency, used by the delinquency scheduler and the api.
export { AuctionRecord } from './entities/auction.entity';
export { DelinquencyRecord } from './entities/delinquency.entity';
export { DelinquencyScheduleRecord } from './entities/delinquency-schedule.entity';
export { GateCodeSuspension } from './entities/gate-code-suspension.entity';
export { AUCTION_BIDDING_DAYS, AUCTION_NOTICE_DAYS } from './auctions';
export { AuctionService, type AuctionChange } from './auction.service';
export { BusinessDayAdvancer, type AdvanceResult, type BusinessDayWorker } from './business-day-advancer';
export { DelinquencyModule } from './delinquency.module';
export { DelinquencyService } from './delinquency.service';
export { DelinquencyConflict, InvalidDelinquencyInput, RentalNotFound } from './errors';
export { openDelinquencyStatus, type OpenDelinquencyStatus } from './open-delinquency';
export { facilitySchedule, saveFacilitySchedule, type FacilitySchedule } from './schedules';
export { type DelinquencyView } from './transition-write';
