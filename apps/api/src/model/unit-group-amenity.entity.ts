import { Entity, Index, PrimaryColumn } from 'typeorm';
import { References } from '@storage/persistence';

/** An amenity a unit group offers (onboarding's). */
@Entity('unit_group_amenities')
export class UnitGroupAmenity {
  @References('unit_groups', 'CASCADE') @PrimaryColumn('uuid') unitGroupUuid!: string;
  @Index() @References('amenities', 'CASCADE') @PrimaryColumn('uuid') amenityUuid!: string;
}
