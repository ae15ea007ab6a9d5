import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';

/** What occupancy counts: a unit is let (occupied) or free to rent (vacant). */
export const UNIT_STATUSES = ['vacant', 'occupied'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

@Entity('units')
@Index(['unitGroupUuid', 'status'])
export class Unit {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @References('unit_groups', 'NO ACTION') @Column('uuid') unitGroupUuid!: string;
  /** The unit number shown on the door. */
  @Column('text') name!: string;
  @Column('text', { default: '1' }) floor!: string;
  @Column('enum', { enum: UNIT_STATUSES, enumName: 'unit_status', default: 'vacant' }) status!: UnitStatus;
}
