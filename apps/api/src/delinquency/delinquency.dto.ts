import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min, Validate } from 'class-validator';
import { AUCTION_STAGES, DELINQUENCY_STATUSES, RENTAL_DELINQUENCY_STATUSES } from '@storage/domain';
import { IsCalendarDateString } from '../common/calendar-date';

const MAX_PENNIES = 2_147_483_647;

export class ScheduleAuctionRequest {
  @ApiProperty({
    format: 'date',
    example: '2099-06-01',
    description: 'Day of the sale (YYYY-MM-DD), not before the facility’s current date; bidding opens then.',
  })
  @Validate(IsCalendarDateString)
  scheduledOn!: string;

  @ApiPropertyOptional({ format: 'date', example: '2099-06-08', description: 'Last day of bidding; default 7 days after scheduledOn.' })
  @IsOptional()
  @Validate(IsCalendarDateString)
  endDate?: string;
}

export class UpdateAuctionRequest {
  @ApiPropertyOptional({ format: 'date', example: '2099-06-01' })
  @IsOptional()
  @Validate(IsCalendarDateString)
  scheduledOn?: string;

  @ApiPropertyOptional({ format: 'date', example: '2099-06-08' })
  @IsOptional()
  @Validate(IsCalendarDateString)
  endDate?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_PENNIES, example: 12000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PENNIES)
  minimumBidInPennies?: number;
}

export class CompleteAuctionRequest {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_PENNIES, example: 15000, description: 'At least the minimum bid.' })
  @IsInt()
  @Min(0)
  @Max(MAX_PENNIES)
  winningBidInPennies!: number;
}

export class DelinquencyView {
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty({ format: 'uuid' }) delinquencyUuid!: string;
  @ApiProperty({ enum: RENTAL_DELINQUENCY_STATUSES }) status!: string;
  @ApiProperty({ enum: DELINQUENCY_STATUSES, nullable: true, type: String, description: 'The status to resume to, while PAUSED.' })
  pausedFrom!: string | null;
  @ApiProperty({ example: '2025-03-07' }) statusChangedOn!: string;
}

class BidAmount {
  @ApiProperty({ type: 'integer' }) amountInPennies!: number;
}

/** The auction object of the `auction` event (spec 6.3). */
export class AuctionView {
  @ApiProperty({ format: 'uuid' }) auctionUuid!: string;
  @ApiProperty({ nullable: true, type: String }) auctionCanceledOnDate!: string | null;
  @ApiProperty({ nullable: true, type: String }) auctionScheduledOnDate!: string | null;
  @ApiProperty({ nullable: true, type: String }) auctionCompletedOnDate!: string | null;
  @ApiProperty({ nullable: true, type: String }) auctionStartDate!: string | null;
  @ApiProperty({ nullable: true, type: String }) auctionEndDate!: string | null;
  @ApiProperty({ enum: AUCTION_STAGES }) auctionStage!: string;
  @ApiProperty({ type: [BidAmount] }) minimumBidAmount!: BidAmount[];
  @ApiProperty({ type: [BidAmount] }) winningBidAmount!: BidAmount[];
}

export class DelinquencyScheduleView {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ example: 5, description: 'OVERDUE (and the late fee) on day graceDays + 1 past due.' }) graceDays!: number;
  @ApiProperty({ example: 10 }) overlockDay!: number;
  @ApiProperty({ example: 30 }) lienDay!: number;
  @ApiProperty({ example: 60 }) auctionDay!: number;
  @ApiProperty({ type: 'integer', example: 2000 }) lateFeeInPennies!: number;
  @ApiProperty({ description: 'True when the facility has no schedule of its own and the defaults apply.' }) isDefault!: boolean;
}
