import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { References } from '@storage/persistence';

/** A facility's own delinquency schedule; a facility without a row uses DEFAULT_DELINQUENCY_SCHEDULE. */
@Entity('delinquency_schedules')
export class DelinquencyScheduleRecord {
  @References('facilities', 'CASCADE') @PrimaryColumn('uuid') facilityUuid!: string;
  @Column('integer') graceDays!: number;
  @Column('integer') overlockDay!: number;
  @Column('integer') lienDay!: number;
  @Column('integer') auctionDay!: number;
  @Column('integer') lateFeeInPennies!: number;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
