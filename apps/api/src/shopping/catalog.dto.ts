import { ApiProperty } from '@nestjs/swagger';
import { COVERAGE_PROVIDERS } from '@storage/domain';

export class CoverageOption {
  @ApiProperty({ format: 'uuid' }) coverageUuid!: string;
  @ApiProperty({ format: 'uuid' }) itemTypeUuid!: string;
  @ApiProperty({ type: 'integer' }) premiumInPennies!: number;
  @ApiProperty({ type: 'integer' }) coverageAmountInPennies!: number;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: COVERAGE_PROVIDERS }) provider!: string;
  @ApiProperty() allowManualChanges!: boolean;
  @ApiProperty() providerDescription!: string;
  @ApiProperty() isDefault!: boolean;
}

export class LeadSourceView {
  @ApiProperty() leadSourceUuid!: string;
  @ApiProperty() description!: string;
}

export class FacilityUnitGroupView {
  @ApiProperty({ format: 'uuid' }) unitGroupUuid!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'uuid' }) sizeAndTypeUnitGroupUuid!: string;
  @ApiProperty() unitType!: string;
  @ApiProperty() length!: number;
  @ApiProperty() width!: number;
  @ApiProperty() height!: number;
  @ApiProperty() tierLevel!: number;
  @ApiProperty({ type: 'integer' }) currentStreetRateInPennies!: number;
  @ApiProperty({ type: 'integer' }) currentWebRateInPennies!: number;
  @ApiProperty() numVacantUnits!: number;
}

export class FacilityAddress {
  @ApiProperty() addressLine1!: string;
  @ApiProperty({ type: 'string', nullable: true }) addressLine2!: string | null;
  @ApiProperty() city!: string;
  @ApiProperty() state!: string;
  @ApiProperty() zip!: string;
  @ApiProperty() country!: string;
}

export class FacilityView {
  @ApiProperty({ format: 'uuid' }) facilityUuid!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: FacilityAddress }) address!: FacilityAddress;
  @ApiProperty() phone!: string;
  @ApiProperty({ description: 'IANA time zone.' }) timeZone!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) operatingHours!: Record<string, unknown>;
  @ApiProperty({ type: [FacilityUnitGroupView] }) unitGroups!: FacilityUnitGroupView[];
}
