import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, Validate } from 'class-validator';
import { SERVICE_FEE_TYPES, type ServiceFeeType } from '@storage/domain';
import type { RentalEventContext } from '@storage/rental-events';
import { RENTAL_STATUSES, type RentalStatus } from '@storage/rentals';
import { IsUuidString } from '../common';
import { IsCalendarDateString } from '../common/calendar-date';

/** Bounds that keep every balance inside the integer column, whatever the sequence of operations. */
const MAX_PAYMENT_IN_PENNIES = 100_000_000;
const MAX_RENT_IN_PENNIES = 10_000_000;

export class RecordPaymentRequest {
  @ApiProperty({ type: 'integer', description: 'Positive whole pennies.', minimum: 1, maximum: MAX_PAYMENT_IN_PENNIES, example: 12028 })
  @IsInt()
  @Min(1)
  @Max(MAX_PAYMENT_IN_PENNIES)
  amountInPennies!: number;
}

export class RentChangeRequest {
  @ApiProperty({ type: 'integer', description: 'The new monthly rent, positive whole pennies.', minimum: 1, maximum: MAX_RENT_IN_PENNIES, example: 13500 })
  @IsInt()
  @Min(1)
  @Max(MAX_RENT_IN_PENNIES)
  newRentInPennies!: number;

  @ApiProperty({ format: 'date', description: 'The day the new rent applies from; today or later at the facility.', example: '2099-08-01' })
  @Validate(IsCalendarDateString)
  effectiveDate!: string;
}

export class AddServiceRequest {
  @ApiProperty({ format: 'uuid', description: 'A recurring SERVICE or COVERAGE item type of the portfolio.' })
  @IsUuidString()
  itemTypeUuid!: string;
}

export class TransferRequest {
  @ApiProperty({ format: 'uuid', description: 'A vacant unit of the same facility.' })
  @IsUuidString()
  newUnitUuid!: string;
}

export class RentalServiceView {
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Pennies for FIXED_AMOUNT, percent for PERCENTAGE.' }) amount!: number;
  @ApiProperty({ enum: SERVICE_FEE_TYPES }) feeType!: ServiceFeeType;
  @ApiProperty({ format: 'uuid' }) itemTypeUuid!: string;
}

/** A rental as it stands after an operator action. */
export class RentalView {
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty({ enum: RENTAL_STATUSES }) status!: RentalStatus;
  @ApiProperty({ format: 'uuid' }) tenantUuid!: string;
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitUuid!: string;
  @ApiProperty({ type: 'integer' }) rentInPennies!: number;
  @ApiProperty({ type: 'integer', description: 'Positive is owed, negative is credit.' }) balanceInPennies!: number;
  @ApiProperty() billingDayOfMonth!: number;
  @ApiProperty({ format: 'date' }) nextDueDate!: string;
  @ApiProperty({ format: 'date' }) startDate!: string;
  @ApiProperty({ format: 'date', nullable: true, type: String }) endDate!: string | null;
  @ApiProperty({ type: [RentalServiceView] }) services!: RentalServiceView[];
}

export class PaymentRecorded {
  @ApiProperty({ format: 'uuid' }) paymentUuid!: string;
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty({ type: 'integer' }) amountInPennies!: number;
  @ApiProperty({ type: 'integer', description: 'The rental balance after the payment; negative is credit.' }) balanceInPennies!: number;
  @ApiProperty({ format: 'date' }) paidOn!: string;
}

export class TransferResult extends RentalView {
  @ApiProperty({ format: 'uuid', description: 'The closed rental record.' }) oldRentalRecordUuid!: string;
  @ApiProperty({ type: 'integer', description: 'The credit carried from the old rental to the new one.' }) transferCreditAmountInPennies!: number;
}

/** The view of a rental from its event context (what its events just reported). */
export function rentalView(context: RentalEventContext, status: RentalStatus): RentalView {
  const { unitRental, billingTemplate } = context.base;
  return {
    rentalRecordUuid: unitRental.rentalRecordUuid,
    status,
    tenantUuid: context.base.tenantUuid,
    facilityUuid: unitRental.facilityUuid,
    unitGroupUuid: unitRental.unitGroupUuid,
    unitUuid: unitRental.unitUuid,
    rentInPennies: billingTemplate.currentRentInPennies,
    balanceInPennies: unitRental.rentalBalance,
    billingDayOfMonth: billingTemplate.billingDayOfMonth,
    nextDueDate: billingTemplate.nextDueDate,
    startDate: unitRental.startRentDate,
    endDate: unitRental.endRentDate,
    services: billingTemplate.additionalServicesAndFees,
  };
}
