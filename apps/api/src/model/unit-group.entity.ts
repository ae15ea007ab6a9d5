import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { pennies, UuidPrimaryColumn } from './columns';

@Entity('unit_groups')
export class UnitGroup {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') facilityUuid!: string;
  @Index() @Column('uuid') sizeAndTypeGroupUuid!: string;
  @Column('text') description!: string;
  @Column('integer', { default: 1 }) tierLevel!: number;
  @Column('uuid') ratePlanUuid!: string;
  @Column(pennies()) baseStreetRateInPennies!: number;
  @Column(pennies()) baseWebRateInPennies!: number;
  /** Base rates adjusted by the rate plan band of the current occupancy; recomputed when either changes. */
  @Column(pennies()) currentStreetRateInPennies!: number;
  @Column(pennies()) currentWebRateInPennies!: number;
  @Column('boolean', { default: true }) canShowUnitGroupTenantPortal!: boolean;
}

@Entity('unit_group_amenities')
export class UnitGroupAmenity {
  @PrimaryColumn('uuid') unitGroupUuid!: string;
  @Index() @PrimaryColumn('uuid') amenityUuid!: string;
}
