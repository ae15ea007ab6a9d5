import { Column, Entity, Index } from 'typeorm';
import { pennies, References, UuidPrimaryColumn } from '@storage/persistence';

@Entity('unit_groups')
export class UnitGroup {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @Index() @References('size_and_type_groups', 'NO ACTION') @Column('uuid') sizeAndTypeGroupUuid!: string;
  @Column('text') description!: string;
  @Column('integer', { default: 1 }) tierLevel!: number;
  @References('rate_plans', 'NO ACTION') @Column('uuid') ratePlanUuid!: string;
  @Column(pennies()) baseStreetRateInPennies!: number;
  @Column(pennies()) baseWebRateInPennies!: number;
  /** Base rates adjusted by the rate plan band of the current occupancy; recomputed when either changes. */
  @Column(pennies()) currentStreetRateInPennies!: number;
  @Column(pennies()) currentWebRateInPennies!: number;
  @Column('boolean', { default: true }) canShowUnitGroupTenantPortal!: boolean;
}
