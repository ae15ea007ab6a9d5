import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';

/** Units of one size and type at a facility; its unit groups split it by tier, amenities and rate plan. */
@Entity('size_and_type_groups')
export class SizeAndTypeGroup {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @References('unit_types', 'NO ACTION') @Column('uuid') unitTypeUuid!: string;
  /** Feet. */
  @Column('numeric', { precision: 6, scale: 2 }) length!: string;
  @Column('numeric', { precision: 6, scale: 2 }) width!: string;
  @Column('numeric', { precision: 6, scale: 2 }) height!: string;
}
