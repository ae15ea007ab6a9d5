import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

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
