import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional } from 'class-validator';
import { IsUuidString } from '../common';

export class EligiblePromotionsRequest {
  @ApiProperty({ format: 'uuid', description: 'One facility UUID (a single string despite the plural name).' })
  @IsUuidString()
  facilityUuids!: string;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 1000, description: 'Only these unit groups; all of the facility when absent.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUuidString({ each: true })
  unitGroupUuids?: string[];

  @ApiPropertyOptional() @IsOptional() @IsBoolean() isForBusiness?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() isAutopayEnabled?: boolean;
}

export class EligibleAutoAppliedPromotion {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiProperty({ format: 'uuid' }) promotionUuid!: string;
  @ApiProperty() promotionName!: string;
  @ApiProperty({ description: 'Total discount over the promotion months, in pennies.' }) highestDiscountAmount!: number;
}

export class EligibleAutoAppliedDsPromotionWinner extends EligibleAutoAppliedPromotion {
  @ApiProperty({ format: 'uuid' }) itemTypeUuid!: string;
  @ApiProperty() itemTypeName!: string;
}

export class EligibleAutoAppliedPromotionsByGroup {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiPropertyOptional({ type: EligibleAutoAppliedPromotion, nullable: true }) bestAutoAppliedPromotion?: EligibleAutoAppliedPromotion | null;
  @ApiProperty({ type: [EligibleAutoAppliedDsPromotionWinner] }) serviceWinners!: EligibleAutoAppliedDsPromotionWinner[];
}
