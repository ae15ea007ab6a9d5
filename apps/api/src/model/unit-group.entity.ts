import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { References } from '@storage/persistence';
import { pennies, UuidPrimaryColumn } from './columns';

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

@Entity('unit_group_amenities')
export class UnitGroupAmenity {
  @References('unit_groups', 'CASCADE') @PrimaryColumn('uuid') unitGroupUuid!: string;
  @Index() @References('amenities', 'CASCADE') @PrimaryColumn('uuid') amenityUuid!: string;
}
