import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength, Validate, ValidateIf } from 'class-validator';
import { IsEmailAddress, IsPhone, IsUuidString, PHONE_PATTERN, PHONE_PATTERN_DESCRIPTION } from '../common';
import { IsCalendarDateString } from '../common/calendar-date';
import { RequiresOneOf } from '../openapi/at-least-one-field';

@RequiresOneOf('email', 'phone')
export class CreateLeadRequest {
  @ApiProperty({ format: 'uuid' }) @IsUuidString() facilityUuid!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The unit group the lead wants; needed before a lease can be sent.' })
  @IsOptional()
  @IsUuidString()
  unitGroupUuid?: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @IsNotEmpty() @MaxLength(100) firstName!: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @IsNotEmpty() @MaxLength(100) lastName!: string;
  @ApiPropertyOptional({ format: 'email', description: 'Email or phone (or both) is required.' })
  @ValidateIf((lead: CreateLeadRequest) => lead.email !== undefined || lead.phone === undefined)
  @IsEmailAddress()
  email?: string;
  @ApiPropertyOptional({ pattern: PHONE_PATTERN, description: PHONE_PATTERN_DESCRIPTION })
  @ValidateIf((lead: CreateLeadRequest) => lead.phone !== undefined || lead.email === undefined)
  @IsPhone()
  phone?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() isForBusiness?: boolean;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuidString() leadSourceUuid?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuidString() leadMarketingSourceUuid?: string;
  @ApiPropertyOptional({ format: 'date', example: '2025-07-01' }) @IsOptional() @Validate(IsCalendarDateString) desiredMoveInDate?: string;
}

export class CreateLeadResult {
  @ApiProperty({ format: 'uuid' }) leadUuid!: string;
}
