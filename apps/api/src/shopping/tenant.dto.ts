import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { IsEmailAddress, IsUuidString } from '../common';

export class CheckPreexistingRequest {
  @ApiProperty({ format: 'uuid' }) @IsUuidString() facilityUuid!: string;
  @ApiProperty({ format: 'email' }) @IsEmailAddress() email!: string;
}

export class CheckPreexistingResult {
  @ApiProperty({ description: 'Whether a tenant with this email exists; when true a code was emailed.' }) exists!: boolean;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the emailed code expires.' }) expiration!: string | null;
}

export class ValidatePreexistingRequest {
  @ApiProperty({ format: 'uuid' }) @IsUuidString() facilityUuid!: string;
  @ApiProperty({ format: 'email' }) @IsEmailAddress() email!: string;
  @ApiProperty({ description: 'The code emailed by check-preexisting.', pattern: '^\\d{6}$', example: '123456' })
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be 6 digits' })
  code!: string;
}

export class Beneficiary {
  @ApiPropertyOptional({ type: 'string', nullable: true }) firstName!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) lastName!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) relationship!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) email!: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) phone!: string | null;
}

const text = { type: 'string', nullable: true } as const;
const uuid = { type: 'string', format: 'uuid', nullable: true } as const;
const dateTime = { type: 'string', format: 'date-time', nullable: true } as const;

/** Spec 2.4 personalInfo: the returning tenant as last known, to prefill the new rental. */
export class PersonalInfo {
  @ApiPropertyOptional(uuid) personUuid!: string | null;
  @ApiPropertyOptional(text) firstName!: string | null;
  @ApiPropertyOptional(text) lastName!: string | null;
  @ApiPropertyOptional(text) email!: string | null;
  @ApiPropertyOptional(text) phone!: string | null;
  @ApiPropertyOptional(text) addressLine1!: string | null;
  @ApiPropertyOptional(text) addressLine2!: string | null;
  @ApiPropertyOptional(text) city!: string | null;
  @ApiPropertyOptional(text) state!: string | null;
  @ApiPropertyOptional(text) country!: string | null;
  @ApiPropertyOptional(text) zip!: string | null;
  @ApiPropertyOptional(text) phoneType!: string | null;
  @ApiPropertyOptional() isSmsEnrolled!: boolean;
  @ApiPropertyOptional(text) idType!: string | null;
  @ApiPropertyOptional(text) idCode!: string | null;
  @ApiPropertyOptional(text) idState!: string | null;
  @ApiPropertyOptional(text) idCountry!: string | null;
  @ApiPropertyOptional(text) idIssueDate!: string | null;
  @ApiPropertyOptional(text) idExpirationDate!: string | null;
  @ApiPropertyOptional(text) accountType!: string | null;
  @ApiPropertyOptional(text) businessName!: string | null;
  @ApiPropertyOptional(text) taxId!: string | null;
  @ApiPropertyOptional() haveAlternateContact!: boolean;
  @ApiPropertyOptional(text) alternateContactFirstName!: string | null;
  @ApiPropertyOptional(text) alternateContactLastName!: string | null;
  @ApiPropertyOptional(text) alternateContactPhone!: string | null;
  @ApiPropertyOptional(text) alternateContactRelationship!: string | null;
  @ApiPropertyOptional() haveMilitary!: boolean;
  @ApiPropertyOptional(text) militaryBranch!: string | null;
  @ApiPropertyOptional(dateTime) dateOfBirth!: string | null;
  @ApiPropertyOptional(dateTime) startDateOfService!: string | null;
  @ApiPropertyOptional(text) commanderOfficer!: string | null;
  @ApiPropertyOptional(text) officerEmail!: string | null;
  @ApiPropertyOptional(dateTime) dateDesiredMoveIn!: string | null;
  @ApiPropertyOptional() isPreviousTenant!: boolean;
  @ApiPropertyOptional() haveVehicle!: boolean;
  @ApiPropertyOptional() haveLienHolder!: boolean;
  @ApiPropertyOptional(text) vehicleType!: string | null;
  @ApiPropertyOptional(text) vehicleMake!: string | null;
  @ApiPropertyOptional(text) vehicleModel!: string | null;
  @ApiPropertyOptional(text) vinNumber!: string | null;
  @ApiPropertyOptional(text) licensePlate!: string | null;
  @ApiPropertyOptional(text) lienHolderName!: string | null;
  @ApiPropertyOptional(text) lienHolderAddress!: string | null;
  @ApiPropertyOptional(uuid) facilityUuid!: string | null;
  @ApiPropertyOptional(uuid) unitGroupUuid!: string | null;
  @ApiPropertyOptional(uuid) leadUuid!: string | null;
  @ApiPropertyOptional(uuid) leadSourceUuid!: string | null;
  @ApiPropertyOptional(uuid) leadMarketingSourceUuid!: string | null;
  @ApiPropertyOptional({ type: Beneficiary, nullable: true }) beneficiary!: Beneficiary | null;
}

export class CreatedLead {
  @ApiProperty({ format: 'uuid' }) leadUuid!: string;
  @ApiProperty({ description: 'Proves the returning tenant verified their email; carried through the rental flow.' }) verifyToken!: string;
}

export class PreexistingTenantValidation {
  @ApiProperty({ description: 'The code matched and has not expired.' }) valid!: boolean;
  @ApiProperty({ description: 'The code matched but has expired; ask for a new one.' }) expired!: boolean;
  @ApiPropertyOptional({ type: PersonalInfo, nullable: true, description: 'Present when valid.' }) personalInfo!: PersonalInfo | null;
  @ApiPropertyOptional({ type: CreatedLead, nullable: true, description: 'Present when valid.' }) createdLead!: CreatedLead | null;
}

export class ConvertedLeadDetails {
  @ApiProperty() unitName!: string;
  @ApiProperty() unitType!: string;
  @ApiProperty() floor!: string;
  @ApiProperty({ description: 'The gate code; "SUSPENDED" while delinquency suspends it (as operation 14 answers), empty once moved out.' })
  gateAccessNumber!: string;
  @ApiProperty({ format: 'date', example: '2025-01-31' }) rentalStartDate!: string;
  @ApiProperty() facilityName!: string;
  @ApiProperty() facilityAddress!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', nullable: true, properties: { open: { type: 'string' }, close: { type: 'string' } } },
    description: 'Per weekday (monday…sunday) `{open, close}` as HH:MM local time, or null when closed.',
  })
  facilityOperatingHours!: Record<string, { open: string; close: string } | null>;
  @ApiProperty() facilityPhone!: string;
  @ApiProperty({
    type: 'integer',
    description: 'Extension: what moving in charged, the first period (rent, services, coverage) net of its promotions, due on the start date.',
  })
  amountDueAtMoveInInPennies!: number;
  @ApiProperty({
    format: 'uuid',
    description:
      "Extension: the rental the lead's signing created, the `{unitRentalRecordUuid}` of the rental routes (gate access code, ledger, payments, move-out).",
  })
  unitRentalRecordUuid!: string;
}
