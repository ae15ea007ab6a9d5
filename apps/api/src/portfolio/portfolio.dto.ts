import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsEmailAddress, IsOmittable, IsPhone, IsUuidString, PHONE_PATTERN, PHONE_PATTERN_DESCRIPTION } from '../common';
import { AtLeastOneField } from '../openapi/at-least-one-field';
import { NOTE_TEXT_MAX_LENGTH } from '../model/note.entity';

/** Look-ups by UUIDs take at most this many; larger sets are paged by the caller. */
export const MAX_LOOKUP_UUIDS = 1000;

export class PortfolioView {
  @ApiProperty() portfolioName!: string;
  @ApiProperty({ description: 'The value for `{portfolio}` in other requests.' }) portfolioId!: string;
}

export class SizeAndTypeLookup {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: MAX_LOOKUP_UUIDS })
  @IsArray()
  @ArrayMaxSize(MAX_LOOKUP_UUIDS)
  @IsUuidString({ each: true })
  sizeAndTypeUnitGroupUuids!: string[];
}

export class VehicleLookup {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: MAX_LOOKUP_UUIDS })
  @IsArray()
  @ArrayMaxSize(MAX_LOOKUP_UUIDS)
  @IsUuidString({ each: true })
  vehicleUuids!: string[];
}

export class CoverageHistoryLookup {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: MAX_LOOKUP_UUIDS })
  @IsArray()
  @ArrayMaxSize(MAX_LOOKUP_UUIDS)
  @IsUuidString({ each: true })
  coverageHistoryUuids!: string[];
}

export class Amenity {
  @ApiProperty({ format: 'uuid' }) amenityUuid!: string;
  @ApiProperty() description!: string;
  @ApiProperty() isSmartAmenity!: boolean;
}

export class UnitGroupView {
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'integer' }) tierLevel!: number;
  @ApiProperty({ type: 'integer' }) currentStreetRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) currentWebRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) numUnits!: number;
  @ApiProperty({ type: 'integer' }) numVacantUnits!: number;
  @ApiProperty({ description: 'Average rent of the active rentals; may be fractional.' }) averageCurrentRentInPennies!: number;
  @ApiProperty({ format: 'uuid' }) ratePlanUuid!: string;
  @ApiProperty({ type: [Amenity] }) amenities!: Amenity[];
  @ApiProperty() canShowUnitGroupTenantPortal!: boolean;
}

export class SizeAndTypeUnitGroup {
  @ApiProperty({ format: 'uuid' }) sizeAndTypeUnitGroupUuid!: string;
  @ApiProperty({ description: 'Unit depth (feet).' }) length!: number;
  @ApiProperty() width!: number;
  @ApiProperty() height!: number;
  @ApiProperty({ example: '50 sq ft', description: 'width × length, with its unit.' }) area!: string;
  @ApiProperty() unitType!: string;
  @ApiProperty({ format: 'uuid', description: 'Unit type identifier.' }) entityAttributeOrganizationUuid!: string;
  @ApiProperty({ type: [UnitGroupView] }) unitGroups!: UnitGroupView[];
}

export class VehicleView {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty({ format: 'uuid' }) rentalRecordUuid!: string;
  @ApiProperty({ format: 'uuid' }) vehicleUuid!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ type: 'string', format: 'date-time' }) updatedAt!: Date;
  @ApiProperty() type!: string;
  @ApiProperty() licensePlateNumber!: string;
  @ApiProperty() make!: string;
  @ApiProperty() model!: string;
  @ApiProperty({ description: 'Vehicle identification number.' }) vin!: string;
}

export class CoverageHistoryRecord {
  @ApiProperty({ format: 'uuid', description: 'Enrollment identifier.' }) monumentCoverageEnrollmentUuid!: string;
  @ApiProperty({ format: 'uuid' }) unitRentalRecordUuid!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) coverageStartDate!: Date;
  @ApiProperty() unitNumber!: string;
  @ApiProperty({ format: 'uuid', description: 'For private coverage: 11111111-1111-1111-1111-111111111111.' }) coverageUuid!: string;
  @ApiProperty({ description: 'Pennies.' }) coveragePremium!: number;
  @ApiProperty({ description: 'Pennies.' }) coverageAmount!: number;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ type: 'string', format: 'date-time' }) updatedAt!: Date;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', nullable: true }) coverageEndDate?: Date | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) partnerCoverageId?: string | null;
}

/** A million dollars a month: far above any unit, far below the integer column's limit. */
const MAX_RATE_IN_PENNIES = 100_000_000;

@AtLeastOneField()
export class PatchUnitGroupRate {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_RATE_IN_PENNIES, description: 'Absent keeps the current base web rate.' })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(MAX_RATE_IN_PENNIES)
  baseWebRateInPennies?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_RATE_IN_PENNIES, description: 'Absent keeps the current base street rate.' })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(MAX_RATE_IN_PENNIES)
  baseStreetRateInPennies?: number;
}

export class UnitGroupRates {
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiProperty({ type: 'integer' }) baseStreetRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) baseWebRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) currentStreetRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) currentWebRateInPennies!: number;
  @ApiProperty({ description: 'Occupied share of the unit group, percent.' }) occupancyPercent!: number;
}

@AtLeastOneField()
export class UpdatePerson {
  @ApiPropertyOptional({ format: 'email' }) @IsOmittable() @IsEmailAddress() email?: string;
  @ApiPropertyOptional({ pattern: PHONE_PATTERN, description: PHONE_PATTERN_DESCRIPTION, example: '(555) 555-0123' }) @IsOmittable() @IsPhone() phone?: string;
}

export class PersonContact {
  @ApiProperty({ format: 'uuid' }) personUuid!: string;
  @ApiProperty({ type: 'string', nullable: true }) email!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Ten digits.' }) phone!: string | null;
}

export class CreateNote {
  @ApiProperty({ maxLength: NOTE_TEXT_MAX_LENGTH }) @IsString() @MaxLength(NOTE_TEXT_MAX_LENGTH) noteText!: string;
}

export class NoteCreated {
  @ApiProperty({ format: 'uuid' }) noteUuid!: string;
}
