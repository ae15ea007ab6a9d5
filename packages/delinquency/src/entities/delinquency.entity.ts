import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { References } from '@storage/persistence';
import { RENTAL_DELINQUENCY_STATUSES, type PausableStatus, type RentalDelinquencyStatus } from '@storage/domain';

/**
 * A rental's delinquency, created the first time it becomes a candidate. `delinquencyUuid` names the
 * current episode: a new one starts each time the rental becomes OVERDUE from not delinquent or PAID.
 */
@Entity('delinquencies')
export class DelinquencyRecord {
  @References('rental_records', 'CASCADE') @PrimaryColumn('uuid') rentalRecordUuid!: string;
  @Column('uuid') facilityUuid!: string;
  @Column('uuid') delinquencyUuid!: string;
  @Column('enum', { enum: RENTAL_DELINQUENCY_STATUSES, enumName: 'rental_delinquency_status' }) status!: RentalDelinquencyStatus;
  /** The status to resume to; set only while PAUSED. */
  @Column('enum', { enum: RENTAL_DELINQUENCY_STATUSES, enumName: 'rental_delinquency_status', nullable: true })
  pausedFrom!: PausableStatus | null;
  /** The oldest unpaid due date of the episode, kept so billing moving next_due_date on does not restart the count. */
  @Column('date', { nullable: true }) pastDueSince!: string | null;
  @Column('date', { nullable: true }) statusChangedOn!: string | null;
  /** The last business date whose run changed this rental; an older date is not applied after it. */
  @Column('date', { nullable: true }) lastBusinessDate!: string | null;
  /** What write-offs took off the balance, in pennies. */
  @Column('integer', { default: 0 }) writtenOffInPennies!: number;
  /** Time of the rental's last delinquency or auction event: the next one is later, so event ids never clash. */
  @Column('timestamptz', { nullable: true }) lastEventAt!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
