import { Column, Entity, Index } from 'typeorm';
import { pennies, References, UuidPrimaryColumn } from '@storage/persistence';
import { COVERAGE_PROVIDERS, type CoverageProvider } from '@storage/domain';

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
