import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { References } from '@storage/persistence';

/**
 * A rental whose gate code is suspended: from OVERLOCK until PAID (or written off). Gate access checks
 * refuse a code whose rental has a row here.
 */
@Entity('gate_code_suspensions')
export class GateCodeSuspension {
  @References('rental_records', 'CASCADE') @PrimaryColumn('uuid') rentalRecordUuid!: string;
  @Column('uuid') facilityUuid!: string;
  @Column('date') suspendedOn!: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
}
