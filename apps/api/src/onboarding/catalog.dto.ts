import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNumber, Max, Min, ValidateNested } from 'class-validator';
import { FEE_TYPES, ITEM_TYPE_KINDS, type FeeType, type ItemTypeKind } from '../model/item-type.entity';
import { Flag, Pennies, Text } from './fields';

/** What a PUT did: the record did not exist, differed, or already was as sent (a retry). */
export const OUTCOMES = ['created', 'updated', 'unchanged'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Portfolio ids are path segments: lower-case letters, digits and dashes. */
export const PORTFOLIO_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

export class PutPortfolioRequest {
  @Text(200, 'The name shown to operators and in operation 6.') name!: string;
}

export class PortfolioResult {
  @ApiProperty({ format: 'uuid' }) uuid!: string;
  @ApiProperty({ pattern: PORTFOLIO_ID_PATTERN, description: 'The `{portfolio}` segment of its routes.' }) portfolioId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: OUTCOMES }) outcome!: Outcome;
}

/** The answer of every other PUT: the record's uuid (the one in the path) and what the call did. */
export class PutResult {
  @ApiProperty({ format: 'uuid' }) uuid!: string;
  @ApiProperty({ enum: OUTCOMES }) outcome!: Outcome;
}

export class PutUnitTypeRequest {
  @Text(200, 'e.g. "Climate Controlled"; webhook `unitTypes` filters name the unit type by its uuid.') description!: string;
}

export class PutAmenityRequest {
  @Text(200) description!: string;
  @Flag(false, 'A smart-lock or other connected amenity.') isSmartAmenity?: boolean;
}

export class PutLeadSourceRequest {
  @Text(200, 'Listed by `GET /shopping/{portfolio}/v1/lead-sources`.') description!: string;
}

export class PutItemTypeRequest {
  @Text(200) name!: string;
  @ApiProperty({ enum: ITEM_TYPE_KINDS, description: 'SERVICE (a recurring service a rental may add), FEE, or COVERAGE (the premium of a coverage).' })
  @IsIn(ITEM_TYPE_KINDS)
  kind!: ItemTypeKind;
  @Pennies() priceInPennies!: number;
  @ApiProperty({ enum: FEE_TYPES, required: false, default: 'FIXED_AMOUNT' })
  @IsIn(FEE_TYPES)
  feeType: FeeType = 'FIXED_AMOUNT';
  @Flag(false, 'Billed every period while the rental has it.') isRecurring?: boolean;
}

export class OccupancyBandInput {
  @ApiProperty({ minimum: 0, maximum: 100 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(100) minOccupancyPercent!: number;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'Above minOccupancyPercent; a band ending at 100 also holds a full group.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  maxOccupancyPercent!: number;
  @ApiProperty({ minimum: -100, maximum: 100 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-100) @Max(100) streetAdjustmentPercent!: number;
  @ApiProperty({ minimum: -100, maximum: 100 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-100) @Max(100) webAdjustmentPercent!: number;
}

export class PutRatePlanRequest {
  @Text(200) name!: string;
  @ApiProperty({
    type: [OccupancyBandInput],
    minItems: 1,
    maxItems: 20,
    description: 'Current rate = base × (1 + adjustment of the band holding the unit group’s occupancy); each band’s min below its max.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => OccupancyBandInput)
  occupancyBands!: OccupancyBandInput[];
}
