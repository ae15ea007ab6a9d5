import { Column, Entity, Index } from 'typeorm';
import { References } from '@storage/persistence';
import { COVERAGE_PROVIDERS, type CoverageProvider } from '@storage/domain';
import { CreatedAt, pennies, UpdatedAt, UuidPrimaryColumn } from './columns';

/** A coverage (insurance) option a facility offers. */
@Entity('coverages')
export class Coverage {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @References('item_types', 'NO ACTION') @Column('uuid') itemTypeUuid!: string;
  @Column(pennies()) premiumInPennies!: number;
  @Column(pennies()) coverageAmountInPennies!: number;
  @Column('text') description!: string;
  @Column('enum', { enum: COVERAGE_PROVIDERS, enumName: 'coverage_provider' }) provider!: CoverageProvider;
  @Column('boolean', { default: false }) allowManualChanges!: boolean;
  @Column('text', { default: '' }) providerDescription!: string;
  @Column('boolean', { default: false }) isDefault!: boolean;
}

/**
 * A rental's coverage over a period (the coverage history of spec 2.7). `coverageUuid` is not a foreign
 * key: a tenant's own insurance uses PRIVATE_COVERAGE_UUID.
 */
@Entity('coverage_enrollments')
export class CoverageEnrollment {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @Index() @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @Column('uuid') coverageUuid!: string;
  @Column(pennies()) premiumInPennies!: number;
  @Column(pennies()) coverageAmountInPennies!: number;
  @Column('timestamptz') startDate!: Date;
  @Column('timestamptz', { nullable: true }) endDate!: Date | null;
  @Column('text', { nullable: true }) partnerCoverageId!: string | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
