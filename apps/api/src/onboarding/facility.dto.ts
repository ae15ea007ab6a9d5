import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  COVERAGE_PROVIDERS,
  PROMOTION_DISCOUNT_TYPES,
  PROMOTION_TENANT_TYPES,
  type CoverageProvider,
  type PromotionDiscountType,
  type PromotionTenantType,
} from '@storage/domain';
import { IsOmittable, IsPhone, IsUuidString, PHONE_PATTERN, PHONE_PATTERN_DESCRIPTION } from '../common';
import { IsCalendarDateString } from '../common/calendar-date';
import { PROMOTION_FAMILIES, type PromotionFamilyKind } from '../model/promotion.entity';
import { OUTCOMES, type Outcome } from './catalog.dto';
import { Count, Flag, IntIn, MAX_PENNIES, MAX_RATE_IN_PENNIES, Pennies, Text } from './fields';

const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export class DayHours {
  @ApiProperty({ pattern: TIME_PATTERN, example: '08:00' }) @Matches(new RegExp(TIME_PATTERN)) open!: string;
  @ApiProperty({ pattern: TIME_PATTERN, example: '18:00' }) @Matches(new RegExp(TIME_PATTERN)) close!: string;
}

const day = (): PropertyDecorator => (target, key) => {
  ApiPropertyOptional({ type: DayHours, nullable: true, description: 'Absent or null: closed.' })(target, key);
  IsOptional()(target, key);
  ValidateNested()(target, key);
  Type(() => DayHours)(target, key);
};

export class OperatingHoursInput {
  @day() monday?: DayHours | null;
  @day() tuesday?: DayHours | null;
  @day() wednesday?: DayHours | null;
  @day() thursday?: DayHours | null;
  @day() friday?: DayHours | null;
  @day() saturday?: DayHours | null;
  @day() sunday?: DayHours | null;
}

export class PutFacilityRequest {
  @Text(200) name!: string;
  @Text(200) addressLine1!: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) addressLine2?: string | null;
  @Text(100) city!: string;
  @Text(100, 'State or region, e.g. "NY".') state!: string;
  @Text(20) zip!: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', default: 'US', description: 'ISO 3166-1 alpha-2.' }) @IsOmittable() @Matches(/^[A-Z]{2}$/) country?: string;
  @ApiProperty({ pattern: PHONE_PATTERN, description: PHONE_PATTERN_DESCRIPTION }) @IsPhone() phone!: string;
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    example: 'America/New_York',
    description: 'IANA time zone: the facility’s business day (billing, delinquency, promotion windows) is counted in it. An unknown zone is 400.',
  })
  @IsString()
  @Length(1, 64)
  timeZone!: string;
  @ApiProperty({ type: OperatingHoursInput, description: 'Per weekday; a day left out or null is closed.' })
  @IsObject()
  @ValidateNested()
  @Type(() => OperatingHoursInput)
  operatingHours!: OperatingHoursInput;
}

const DIMENSION = { minimum: 0.01, maximum: 9999, description: 'Feet, kept to hundredths.' };
const dimension = (): PropertyDecorator => (target, key) => {
  ApiProperty(DIMENSION)(target, key);
  IsNumber({ allowNaN: false, allowInfinity: false })(target, key);
  Min(DIMENSION.minimum)(target, key);
  Max(DIMENSION.maximum)(target, key);
};

export class PutSizeAndTypeGroupRequest {
  @ApiProperty({ format: 'uuid', description: 'A unit type of the portfolio.' }) @IsUuidString() unitTypeUuid!: string;
  @dimension() width!: number;
  @dimension() length!: number;
  @dimension() height!: number;
}

export class PutUnitGroupRequest {
  @ApiProperty({ format: 'uuid', description: 'A size-and-type group of the same facility.' }) @IsUuidString() sizeAndTypeGroupUuid!: string;
  @Text(200) description!: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 1 }) @IsOmittable() @IntIn(1, 100) tierLevel?: number;
  @ApiProperty({ format: 'uuid', description: 'A rate plan of the portfolio.' }) @IsUuidString() ratePlanUuid!: string;
  @Pennies(MAX_RATE_IN_PENNIES, 'Monthly street rate before the rate plan’s adjustment.') baseStreetRateInPennies!: number;
  @Pennies(MAX_RATE_IN_PENNIES, 'Monthly web rate before the rate plan’s adjustment (what leases are sent at).') baseWebRateInPennies!: number;
  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: 50,
    uniqueItems: true,
    description: 'Amenities of the portfolio; the list replaces the group’s.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsUuidString({ each: true })
  amenityUuids?: string[];
  @Flag(true, 'Shown to tenants in the portal.') canShowUnitGroupTenantPortal?: boolean;
}

export class UnitGroupResult {
  @ApiProperty({ format: 'uuid' }) uuid!: string;
  @ApiProperty({ enum: OUTCOMES }) outcome!: Outcome;
  @ApiProperty({ type: 'integer', description: 'Base rate adjusted by the rate plan band of the group’s occupancy.' }) currentStreetRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) currentWebRateInPennies!: number;
}

export class PutUnitRequest {
  @ApiProperty({ format: 'uuid', description: 'A unit group of the same facility; an occupied unit cannot change group (409).' })
  @IsUuidString()
  unitGroupUuid!: string;
  @Text(50, 'The number on the door.') name!: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 20, default: '1' }) @IsOmittable() @IsString() @Length(1, 20) floor?: string;
}

export class PutPromotionRequest {
  @Text(200) name!: string;
  @ApiProperty({ enum: PROMOTION_DISCOUNT_TYPES, description: 'PERCENTAGE needs `percentage`; AMOUNT_OFF and FIXED_RATE need `amountInPennies`.' })
  @IsIn(PROMOTION_DISCOUNT_TYPES)
  discountType!: PromotionDiscountType;
  @ApiPropertyOptional({ minimum: 0.01, maximum: 100, description: 'Required by PERCENTAGE, ignored by the others.' })
  @ValidateIf((promotion: PutPromotionRequest) => promotion.discountType === 'PERCENTAGE' || promotion.percentage !== undefined)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.01)
  @Max(100)
  percentage?: number;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_RATE_IN_PENNIES,
    description: 'Required by AMOUNT_OFF and FIXED_RATE, ignored by PERCENTAGE.',
  })
  @ValidateIf((promotion: PutPromotionRequest) => promotion.discountType !== 'PERCENTAGE' || promotion.amountInPennies !== undefined)
  @IntIn(0, MAX_RATE_IN_PENNIES)
  amountInPennies?: number;
  @ApiPropertyOptional({ enum: PROMOTION_TENANT_TYPES, default: 'ALL' }) @IsOmittable() @IsIn(PROMOTION_TENANT_TYPES) tenantType?: PromotionTenantType;
  @Flag(true, 'Applied without a code (operation 1 and the lease page consider auto-applied promotions only).') isAutoApplied?: boolean;
  @Flag(false) isAutoPayRequired?: boolean;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 60, default: 1, description: 'The month of the tenancy it starts in (1: the first).' })
  @IsOmittable()
  @IntIn(1, 60)
  monthStarts?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 60, default: 1 }) @IsOmittable() @IntIn(1, 60) durationInMonths?: number;
  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: 200,
    uniqueItems: true,
    description: 'Unit groups of the facility it targets; empty or absent: all.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(200)
  @ArrayUnique()
  @IsUuidString({ each: true })
  unitGroupUuids?: string[];
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @IsOptional() @Validate(IsCalendarDateString) validFrom?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, description: 'Not before validFrom.' })
  @IsOptional()
  @Validate(IsCalendarDateString)
  validTo?: string | null;
  @ApiPropertyOptional({ enum: PROMOTION_FAMILIES, default: 'RENT', description: 'DISCOUNTED_SERVICE discounts the SERVICE item type `itemTypeUuid`.' })
  @IsOmittable()
  @IsIn(PROMOTION_FAMILIES)
  family?: PromotionFamilyKind;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'For DISCOUNTED_SERVICE only.' })
  @ValidateIf(
    (promotion: PutPromotionRequest) => promotion.family === 'DISCOUNTED_SERVICE' || (promotion.itemTypeUuid !== undefined && promotion.itemTypeUuid !== null),
  )
  @IsUuidString()
  itemTypeUuid?: string | null;
}

export class PutCoverageRequest {
  @ApiProperty({ format: 'uuid', description: 'A COVERAGE item type of the portfolio (the premium’s bill line).' }) @IsUuidString() itemTypeUuid!: string;
  @Pennies(MAX_RATE_IN_PENNIES, 'Monthly premium.') premiumInPennies!: number;
  @Pennies(MAX_PENNIES) coverageAmountInPennies!: number;
  @Text(500) description!: string;
  @ApiProperty({ enum: COVERAGE_PROVIDERS }) @IsIn(COVERAGE_PROVIDERS) provider!: CoverageProvider;
  @Flag(false) allowManualChanges?: boolean;
  @ApiPropertyOptional({ maxLength: 500, default: '' }) @IsOmittable() @IsString() @MaxLength(500) providerDescription?: string;
  @Flag(false, 'Enrolled at lease signing; making one the default makes the facility’s others not.') isDefault?: boolean;
}

export class PutDelinquencyScheduleRequest {
  @Count(0, 3650, 'OVERDUE (and the late fee) on day graceDays + 1 past due.') graceDays!: number;
  @Count(0, 3650, 'After graceDays.') overlockDay!: number;
  @Count(0, 3650, 'Not before overlockDay.') lienDay!: number;
  @Count(0, 3650, 'Not before lienDay.') auctionDay!: number;
  @Pennies() lateFeeInPennies!: number;
}

export class DelinquencyScheduleResult {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ enum: OUTCOMES }) outcome!: Outcome;
}
