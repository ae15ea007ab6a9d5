import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { LEDGER_ENTRY_KINDS, type LedgerEntryKind } from '@storage/rental-ledger';
import { IsPageLimit, type PageLimit } from '../common';

export const LEDGER_PAGE_LIMIT: PageLimit = { default: 100, max: 500 };

export class LedgerQuery {
  @ApiPropertyOptional({ type: 'string', pattern: '^[0-9]{1,18}$', description: 'The `position` of the last entry already read: the page starts after it.' })
  @IsOptional()
  @Matches(/^[0-9]{1,18}$/, { message: 'after must be the position of an entry (a whole number)' })
  after?: string;

  @IsPageLimit('Entries', LEDGER_PAGE_LIMIT)
  limit?: string;
}

export class ServicePeriodView {
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date', description: 'Exclusive: the next due date.' }) to!: string;
}

export class LedgerEntryView {
  @ApiProperty({ format: 'uuid' }) entryUuid!: string;
  @ApiProperty({ description: 'Increasing in posting order; pass the last one read as `after` for the next page.' }) position!: string;
  @ApiProperty({ enum: LEDGER_ENTRY_KINDS }) kind!: LedgerEntryKind;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'integer', description: 'Charges positive; payments and credits negative.' }) amountInPennies!: number;
  @ApiProperty({ format: 'date' }) postedOn!: string;
  @ApiProperty({ format: 'date', type: String, nullable: true, description: 'When the amount falls due (charges); null for credits.' }) dueOn!: string | null;
  @ApiProperty({ type: ServicePeriodView, nullable: true, description: 'The period a charge of rent, fee or premium covers.' })
  servicePeriod!: ServicePeriodView | null;
  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'The charge a promotion credit nets.' }) appliesToEntryUuid!: string | null;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) itemTypeUuid!: string | null;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) promotionUuid!: string | null;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) paymentUuid!: string | null;
  @ApiProperty({ type: 'integer', description: 'The rental balance after this entry.' }) balanceAfterInPennies!: number;
}

export class RentalLedgerView {
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty({ type: 'integer', description: 'The sum of all the entries; positive is owed, negative is credit.' }) balanceInPennies!: number;
  @ApiProperty({ format: 'date' }) nextDueDate!: string;
  @ApiProperty({ type: [LedgerEntryView], description: 'Oldest first.' }) entries!: LedgerEntryView[];
  @ApiProperty({ type: String, nullable: true, description: 'The `after` of the next page; null on the last page.' }) nextPageAfter!: string | null;
}
