import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { DELINQUENCY_STATUSES, type DelinquencyStatus } from '@storage/domain';
import { RENTAL_STATUSES, type RentalStatus } from '@storage/rentals';
import { IsPageLimit, IsUuidString, type PageLimit } from '../common';

export const RENTAL_RECORDS_PAGE_LIMIT: PageLimit = { default: 50, max: 200 };

export class RentalRecordsQuery {
  @ApiPropertyOptional({ enum: RENTAL_STATUSES, description: 'Only the rentals with this status.' })
  @IsOptional()
  @IsIn(RENTAL_STATUSES)
  status?: RentalStatus;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this tenant's rentals (the person who signed)." })
  @IsOptional()
  @IsUuidString()
  tenantUuid?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the rentals of this unit, past and present.' })
  @IsOptional()
  @IsUuidString()
  unitUuid?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The `rentalRecordUuid` of the last rental already read: the page starts after it.' })
  @IsOptional()
  @IsUuidString()
  after?: string;

  @IsPageLimit('Rentals', RENTAL_RECORDS_PAGE_LIMIT)
  limit?: string;
}

/** A rental as the list shows it: enough to recognise it and to act on it through the rental routes. */
export class RentalRecordSummary {
  @ApiProperty({ format: 'uuid', description: 'The `{unitRentalRecordUuid}` of the rental routes.' }) rentalRecordUuid!: string;
  @ApiProperty({ enum: RENTAL_STATUSES }) status!: RentalStatus;
  @ApiProperty({ format: 'uuid' }) tenantUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitUuid!: string;
  @ApiProperty({ format: 'date' }) startDate!: string;
  @ApiProperty({ format: 'date', type: String, nullable: true, description: 'The move-out (or transfer) date; null while active.' }) endDate!: string | null;
  @ApiProperty({ type: 'integer' }) rentInPennies!: number;
  @ApiProperty({ type: 'integer', description: 'Positive is owed, negative is credit.' }) balanceInPennies!: number;
  @ApiProperty({
    enum: DELINQUENCY_STATUSES,
    type: String,
    nullable: true,
    description: 'The delinquency status as the delinquency-status-change event last reported it; null when the rental was never delinquent.',
  })
  delinquencyStatus!: DelinquencyStatus | null;
}

export class RentalRecordsPage {
  @ApiProperty({ type: [RentalRecordSummary], description: 'In `rentalRecordUuid` order.' }) rentalRecords!: RentalRecordSummary[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The `after` of the next page; null on the last page.' })
  nextPageAfter!: string | null;
}
